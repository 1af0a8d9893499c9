package record_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness/record"
)

// A model that asks for a tool, then answers; each call goes through the
// recorder, and the scenario is written once the conversation has its
// answer.
func Example() {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body := make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		if !strings.Contains(string(body), `"tool"`) {
			fmt.Fprint(w, `{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]}}]}`)
			return
		}
		fmt.Fprint(w, `{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"It says hi."}}]}`)
	}))
	defer model.Close()
	dir, _ := os.MkdirTemp("", "record")
	defer os.RemoveAll(dir)
	scenario := filepath.Join(dir, "read.yaml")
	rec, _ := record.New(record.Options{Upstream: model.URL + "/v1", Env: func(string) string { return "" }})
	for _, body := range []string{
		`{"model":"m","messages":[{"role":"user","content":"What is in a.txt?"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"What is in a.txt?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"hi"}]}`,
	} {
		w := httptest.NewRecorder()
		h := http.Header{"Content-Type": {"application/json"}}
		_ = rec.Record(context.Background(), w, h, scenario, llmwire.OpenAI, "/v1/chat/completions", []byte(body))
		fmt.Println(w.Code)
	}
	data, _ := os.ReadFile(scenario)
	fmt.Println(strings.Contains(string(data), "final: It says hi."))
	// Output:
	// 200
	// 200
	// true
}
