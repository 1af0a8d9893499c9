package gateway

import (
	"errors"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core/jsonspan"
)

// ErrCapped is the loop stopping at MaxRounds with the model still calling
// expand_context and nothing else to give the client: no text and no real
// tool call. The proxy answers it as an error in the API's shape, never as
// an empty answer.
var ErrCapped = errors.New("the model called expand_context in every round up to the cap and gave no answer")

// usageSum adds up the numbers of the "usage" objects of every round's
// response, by their path in the object (OpenAI's prompt_tokens,
// completion_tokens, total_tokens and prompt_tokens_details.cached_tokens;
// Anthropic's input_tokens, output_tokens and cache_* tokens; any other
// integer a provider reports), so that the answer the client gets reports
// what the whole exchange cost, not its last round. The first round's
// response is read only once a second round comes: a request answered in
// one round (most) is not parsed for a sum it never shows.
type usageSum struct {
	sums   map[string]int64
	first  []byte // the first round's response, not read yet
	rounds int    // responses added
}

// add adds the usage of one round's response; a response without usage, or
// one that does not parse, adds nothing.
func (u *usageSum) add(resp []byte) {
	if u.rounds++; u.rounds == 1 {
		u.first = resp
		return
	}
	u.readFirst()
	u.sum(resp)
}

// readFirst adds the first round's usage, once.
func (u *usageSum) readFirst() {
	if u.first != nil {
		u.sum(u.first)
		u.first = nil
	}
}

func (u *usageSum) sum(resp []byte) {
	root, err := jsonspan.Parse(resp)
	if err != nil {
		return
	}
	if u.sums == nil {
		u.sums = map[string]int64{}
	}
	walkUsage(resp, root.Get("usage"), "", func(path string, v int64, _ *jsonspan.Node) { u.sums[path] += v })
}

// apply returns resp with every integer of its usage object replaced by the
// sum over the rounds; the object keeps its keys, order and other bytes.
func (u *usageSum) apply(resp []byte) []byte {
	u.readFirst()
	root, err := jsonspan.Parse(resp)
	if err != nil {
		return resp
	}
	var edits []jsonspan.Edit
	walkUsage(resp, root.Get("usage"), "", func(path string, v int64, n *jsonspan.Node) {
		if sum, ok := u.sums[path]; ok && sum != v {
			edits = append(edits, jsonspan.Edit{Start: n.Start, End: n.End, Text: strconv.AppendInt(nil, sum, 10)})
		}
	})
	return jsonspan.Splice(resp, edits)
}

// walkUsage calls fn with the path and value of every integer in the usage
// object n (objects nest; a path is its keys joined with ".").
func walkUsage(body []byte, n *jsonspan.Node, prefix string, fn func(path string, v int64, n *jsonspan.Node)) {
	if n == nil || n.Kind != '{' {
		return
	}
	for i, k := range n.Keys {
		v := n.Vals[i]
		switch v.Kind {
		case '{':
			walkUsage(body, v, prefix+k+".", fn)
		case 'n':
			if x, err := strconv.ParseInt(string(body[v.Start:v.End]), 10, 64); err == nil {
				fn(prefix+k, x, v)
			}
		}
	}
}

// hasAnswer reports whether a response (phantom calls stripped) gives the
// client something: a text or a tool call, in OpenAI's choices, in
// Anthropic's content blocks, or in the Responses API's output items (a
// message with text or a refusal, a call item).
func hasAnswer(resp []byte) bool {
	root, err := jsonspan.Parse(resp)
	if err != nil {
		return true // not ours to judge: relay it
	}
	for _, ch := range root.Get("choices").Items() {
		m := ch.Get("message")
		if len(m.Get("tool_calls").Items()) > 0 || jsonspan.ContentText(m.Get("content")) != "" {
			return true
		}
	}
	for _, b := range root.Get("content").Items() {
		switch b.Get("type").Text() {
		case "text":
			if b.Get("text").Text() != "" {
				return true
			}
		case "tool_use", "server_tool_use":
			return true
		}
	}
	for _, it := range root.Get("output").Items() {
		switch typ := it.Get("type").Text(); {
		case typ == "message":
			for _, p := range it.Get("content").Items() {
				if p.Get("text").Text() != "" || p.Get("refusal").Text() != "" {
					return true
				}
			}
		case strings.HasSuffix(typ, "_call"):
			return true
		}
	}
	return false
}
