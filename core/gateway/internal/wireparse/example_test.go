package wireparse_test

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway/internal/wireparse"
)

// A wire reads a request's messages, and the text of a tool result sent
// as parts.
func ExampleParseMessages() {
	msgs, err := wireparse.ParseMessages([]byte(`{"messages":[{"role":"tool","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`), "example request")
	if err != nil {
		fmt.Println(err)
		return
	}
	text, whole := wireparse.ResultText(msgs.Items()[0].Get("content"), "text")
	fmt.Println(len(msgs.Items()), text, whole)
	// Output: 1 ab true
}
