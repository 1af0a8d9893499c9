package serve_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolout/toolout/harness/serve"
)

// Serve a scenario in process and answer an OpenAI-style request from its
// script; the step left unused is what Check reports.
func ExampleServer() {
	srv, err := serve.Load([]string{"../../scenarios/session/over-cap-handle.yaml"}, serve.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	body := `{"model":"any","messages":[{"role":"user","content":"Count ERROR lines per host."}]}`
	resp, err := http.Post(ts.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var c struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		fmt.Println(err)
		return
	}
	call := c.Choices[0].Message.ToolCalls[0].Function
	fmt.Println(resp.StatusCode, resp.Header.Get(serve.TagHeader), c.Choices[0].FinishReason, call.Name, call.Arguments)
	_ = srv.Close()
	fmt.Println(srv.Check())
	// Output:
	// 200 session.turn turn=1 tool_calls logs__query {"since":"1h"}
	// scenarios/session/over-cap-handle.yaml:28:3: step "answer" was never used
}
