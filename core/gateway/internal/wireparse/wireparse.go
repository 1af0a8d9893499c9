// Package wireparse holds what the wire packages (core/gateway/openai,
// anthropic, responses) share to read a provider's request and answers:
// a body parsed as a JSON object within the gateway's bounds, its
// messages, a conversation read once, a tool result's text, a call's
// shadow_id argument. It is internal so that core/gateway exports only
// what a user of the gateway needs; a new wire package under core/gateway
// imports it too.
package wireparse

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/jsonspan"
)

// ResultText is the text of a tool result's content as the client sent
// it: a string, or the texts of the parts of a list whose type is one of
// textTypes, concatenated with nothing between them, so that N bytes of
// text expand to exactly those N bytes; other values (null) read as "".
// whole is false when the list holds any other part (an image, a
// document, a part whose text is not a string), which the text leaves
// out: compressing that text would replace the whole value, and the part
// with it, so the wires do not read such a result.
func ResultText(c *jsonspan.Node, textTypes ...string) (text string, whole bool) {
	if c.Kind != '[' {
		return c.Text(), true
	}
	var b strings.Builder
	whole = true
	for _, p := range c.Vals {
		t := p.Get("text")
		if !slices.Contains(textTypes, p.Get("type").Text()) || t == nil || t.Kind != '"' {
			whole = false
			continue
		}
		b.WriteString(t.Str)
	}
	return b.String(), whole
}

// ParseObject parses a body that must be a JSON object; what names it in
// errors ("openai request", "anthropic response").
func ParseObject(body []byte, what string) (*jsonspan.Node, error) {
	return gateway.ParseObjectBounded(body, what, gateway.Bounds{})
}

// ParseMessages parses a request body (what names it in errors) and
// returns its "messages" array, which must be there.
func ParseMessages(body []byte, what string) (*jsonspan.Node, error) {
	root, err := ParseObject(body, what)
	if err != nil {
		return nil, err
	}
	msgs := root.Get("messages")
	if msgs == nil || msgs.Kind != '[' {
		return nil, fmt.Errorf("%s: no messages array", what)
	}
	return msgs, nil
}

// ReadConversation parses a request body once (what names it in errors),
// within b (gateway.ParseObjectBounded):
// a JSON object whose "messages" hold the conversation. tools reads its
// tool results and the values holding them; Query is the text of the last
// user message that has text (one that holds only images or tool results
// does not replace it); Stream is "stream": true. Each wire's Read is this
// with its own tool-result reader and expand_context definition.
func ReadConversation(body []byte, what string, b gateway.Bounds, expandTool []byte,
	tools func(root *jsonspan.Node) ([]gateway.ToolOutput, []*jsonspan.Node)) (*gateway.Conversation, error) {
	root, err := gateway.ParseObjectBounded(body, what, b)
	if err != nil {
		return nil, err
	}
	c := &gateway.Conversation{Body: body, Root: root, ExpandTool: expandTool}
	c.Outputs, c.Contents = tools(root)
	for _, m := range root.Get("messages").Items() {
		if m.Get("role").Text() == "user" {
			if t := jsonspan.ContentText(m.Get("content")); t != "" {
				c.Query = t
			}
		}
	}
	c.Stream = root.Get("stream") != nil && root.Get("stream").Kind == 't'
	return c, nil
}

// ShadowArg returns the shadow_id argument of a call's JSON arguments, or
// "" when they hold none.
func ShadowArg(args []byte) string {
	var a struct {
		ShadowID string `json:"shadow_id"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	return a.ShadowID
}
