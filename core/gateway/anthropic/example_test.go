package anthropic_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

// A streamed answer with a text block and a tool_use whose input comes in
// pieces becomes the message the API returns without streaming.
func ExampleAssembleStream() {
	stream := strings.Join([]string{
		`event: message_start`,
		`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}`,
		``,
		`event: content_block_start`,
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		``,
		`event: ping`,
		`data: {"type": "ping"}`,
		``,
		`event: content_block_delta`,
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}`,
		``,
		`event: content_block_stop`,
		`data: {"type":"content_block_stop","index":0}`,
		``,
		`event: content_block_start`,
		`data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}}`,
		``,
		`event: content_block_delta`,
		`data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\": "}}`,
		``,
		`event: content_block_delta`,
		`data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"/a.go\"}"}}`,
		``,
		`event: content_block_stop`,
		`data: {"type":"content_block_stop","index":1}`,
		``,
		`event: message_delta`,
		`data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":30}}`,
		``,
		`event: message_stop`,
		`data: {"type":"message_stop"}`,
		``, ``,
	}, "\n")
	msg, err := anthropic.AssembleStream([]byte(stream))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(msg))

	// Cut before message_stop, the same stream is an error.
	_, err = anthropic.AssembleStream([]byte(stream[:len(stream)-40]))
	fmt.Println(err)
	// Output:
	// {"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a.go"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":30}}
	// anthropic: stream: 31:12 (byte 1248): the stream ended before message_stop
}

// A request body becomes a core.Request: the system prompt first, the
// tool_result blocks as tool messages.
func ExampleDecodeRequest() {
	body := `{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"Be brief.","messages":[
		{"role":"user","content":"What failed?"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"make test"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"FAIL: TestPool"}]}]}`
	req, stream, err := anthropic.DecodeRequest([]byte(body), core.Tag{Site: core.SiteGatewayUpstream})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stream:", stream, "max tokens:", req.MaxOutputTokens)
	for _, m := range req.Messages {
		fmt.Printf("%s %q calls=%d call_id=%q name=%q\n", m.Role, m.Content, len(m.ToolCalls), m.ToolCallID, m.Name)
	}
	// Output:
	// stream: false max tokens: 1024
	// system "Be brief." calls=0 call_id="" name=""
	// user "What failed?" calls=0 call_id="" name=""
	// assistant "" calls=1 call_id="" name=""
	// tool "FAIL: TestPool" calls=0 call_id="toolu_1" name="Bash"
}

// A scripted upstream answers in the streaming format, and a core.Response
// goes back to a client as one message.
func ExampleWriteStream() {
	resp := core.Response{Text: "All tests pass.", FinishReason: core.FinishStop, Usage: core.Usage{InputTokens: 12, OutputTokens: 5}}
	_ = anthropic.WriteStream(os.Stdout, resp, "msg_2", "scripted")
	// Output:
	// event: message_start
	// data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"scripted","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":5}}}
	//
	// event: ping
	// data: {"type":"ping"}
	//
	// event: content_block_start
	// data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"All "}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"tests "}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"pass."}}
	//
	// event: content_block_stop
	// data: {"type":"content_block_stop","index":0}
	//
	// event: message_delta
	// data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}
	//
	// event: message_stop
	// data: {"type":"message_stop"}
}
