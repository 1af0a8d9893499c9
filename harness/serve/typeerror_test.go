package serve_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/serve"
)

// A value of the wrong JSON type in a chat-completions request got a 400
// quoting a Go type, a whole anonymous struct with its
// tags (`[]struct { Role string "json:\"role\""; ... }`). The message now
// names the value's place and the JSON type wanted, as the Anthropic and
// Responses wires already did.
var _ = Describe("toolout serve's 400 for a value of the wrong JSON type", func() {
	DescribeTable("names the value's line, column, byte and path, and the JSON type wanted; never a Go type",
		func(route, body, want string) {
			r := start(serve.Options{}, overCap)
			a := post(r.base+route, body)
			Expect(a.status).To(Equal(http.StatusBadRequest), a.body)
			msg := a.json()["error"].(map[string]any)["message"]
			Expect(msg).To(Equal("toolout serve: " + want))
			Expect(msg).NotTo(Or(ContainSubstring("struct"), ContainSubstring("Go "), ContainSubstring("json:")))
		},
		Entry("a role that is a number", "/v1/chat/completions", `{"messages":[{"role":1}]}`,
			"openai: chat request: 1:22 (byte 21): messages[0].role: want a string, got a number"),
		Entry("tools as an object", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":{}}`,
			"openai: chat request: 1:66 (byte 65): tools: want an array, got an object"),
		Entry("messages as an object", "/v1/chat/completions", `{"messages":{}}`,
			"openai: chat request: 1:13 (byte 12): messages: want an array, got an object"),
		Entry("a message that is an array, on line 3", "/v1/chat/completions", "{\"messages\":[\n  {\"role\":\"user\",\"content\":\"x\"},\n  [1]]}",
			"openai: chat request: 3:3 (byte 49): messages[1]: want an object, got an array"),
		Entry("a tool call's name that is a number", "/v1/chat/completions",
			`{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"function":{"name":3}}]}]}`,
			"openai: chat request: 1:98 (byte 97): messages[1].tool_calls[0].function.name: want a string, got a number"),
		Entry("a fractional max_tokens", "/v1/chat/completions", `{"max_tokens":1.5,"messages":[{"role":"user","content":"x"}]}`,
			"openai: chat request: 1:15 (byte 14): max_tokens: want an integer, got the number 1.5"),
		Entry("the whole body an array", "/v1/chat/completions", `[]`,
			"openai: chat request: 1:1 (byte 0): want an object, got an array"),
		Entry("stream_options a number", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"stream_options":5}`,
			"openai: chat request: stream_options: 1:62 (byte 61): stream_options: want an object, got a number"),
		Entry("previous_response_id a number", "/v1/responses", `{"input":"x","previous_response_id":5}`,
			"responses: request: 1:37 (byte 36): previous_response_id: want a string, got a number"),
	)
})
