package responses_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/responses"
)

// A request decodes to core messages; a core response encodes to the
// response object and to the event stream, which assembles back to it.
func Example() {
	req, stream, err := responses.DecodeRequest([]byte(`{"model":"gpt-5","instructions":"Be brief.","stream":true,"input":[
		{"role":"user","content":"How many files?"},
		{"type":"function_call","call_id":"call_1","name":"shell","arguments":"{\"command\":[\"ls\"]}"},
		{"type":"function_call_output","call_id":"call_1","output":"a.go\nb.go"}]}`), core.Tag{Site: core.SiteSessionTurn})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range req.Messages {
		fmt.Printf("%s %q %d call(s)\n", m.Role, m.Content, len(m.ToolCalls))
	}
	answer := core.Response{Text: "Two.", Usage: core.Usage{InputTokens: 30, OutputTokens: 2}}
	events := responses.EncodeStream(answer, "resp_1", "gpt-5")
	body, _ := responses.Assemble(events)
	var r struct {
		Status string `json:"status"`
		Output []struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"output"`
	}
	_ = json.Unmarshal(body, &r)
	fmt.Println(stream, r.Status, r.Output[0].Content[0].Text, string(body) == string(responses.EncodeResponse(answer, "resp_1", "gpt-5")))
	// Output:
	// system "Be brief." 0 call(s)
	// user "How many files?" 0 call(s)
	// assistant "" 1 call(s)
	// tool "a.go\nb.go" 0 call(s)
	// true completed Two. true
}
