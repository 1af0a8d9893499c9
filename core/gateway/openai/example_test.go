package openai_test

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/openai"
)

func ExampleWire() {
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"Which host failed?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"logs","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"line 1 ok\nline 2 FAILED db-9"}]}`)
	c, err := openai.Wire{}.Read(body)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d output from %s; question %q\n", len(c.Outputs), c.Outputs[0].Tool, c.Query)
	out, _ := c.Rewrite([]gateway.Result{{Index: 0, Action: gateway.ActionCompressed, Text: "<<<SHADOW:shadow_1>>>\n2 lines"}}, false)
	fmt.Println(string(out[len(out)-65:]))
	// Output:
	// 1 output from logs; question "Which host failed?"
	// "tool_call_id":"c1","content":"<<<SHADOW:shadow_1>>>\n2 lines"}]}
}
