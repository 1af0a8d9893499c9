package importer

import (
	"bytes"
	"slices"

	"github.com/toolout/toolout/core/gateway/openai"
)

// chatCall is one LLM call of a log (a line of a chat completions or
// Anthropic Messages log, a chat span of OTel): its request's messages and
// its response's assistant message, at their offsets in the log.
type chatCall struct {
	label string // names the call in errors: "line 3"
	words *callWords
	list  int // byte offset of the request's list of messages
	req   []traceMessage
	reply traceMessage
}

// callWords name a format's calls' parts in errors: the request, the
// reply, and the rule that each call extends the one before.
type callWords struct{ req, reply, rule string }

// requestWords are the words of the logs whose calls are requests and
// replies: chat completions and Anthropic Messages.
var requestWords = callWords{"request", "reply", "each call's request extends the one before it"}

// chain reads a log's n calls in order (read), checking that each extends
// the one before it (extends), and makes the last call's request and
// reply the trace's messages. n is at least 1.
func (t *parsedTrace) chain(n int, read func(k int) (*chatCall, error), extends func(prev, c *chatCall) error) error {
	var prev *chatCall
	for k := range n {
		c, err := read(k)
		if err != nil {
			return err
		}
		if prev != nil {
			if err := extends(prev, c); err != nil {
				return err
			}
		}
		prev = c
	}
	t.list, t.msgs = prev.list, append(prev.req, prev.reply)
	return nil
}

// extends checks that c's request starts with prev's request and reply.
func (t *parsedTrace) extends(prev, c *chatCall) error {
	want := append(slices.Clip(prev.req), prev.reply)
	w := c.words
	for i, m := range want {
		if i >= len(c.req) {
			return t.errorf(c.list, "the %s holds %d messages, not the %d of %s's %s and %s before its own: %s",
				w.req, len(c.req), len(want), prev.label, w.req, w.reply, w.rule)
		}
		if !sameMessage(m, c.req[i]) {
			from := w.req
			if i == len(prev.req) {
				from = w.reply
			}
			return t.errorf(c.req[i].at, "message %d differs from %s's %s: %s", i, prev.label, from, w.rule)
		}
	}
	return nil
}

// sameMessage tells whether a and b say the same: role, content text, tool
// calls (id, name, arguments) and tool_call_id.
func sameMessage(a, b traceMessage) bool {
	return a.Role == b.Role && a.text == b.text && a.ToolCallID == b.ToolCallID &&
		slices.EqualFunc(a.ToolCalls, b.ToolCalls, func(x, y openai.ToolCall) bool {
			return x.ID == y.ID && x.Function.Name == y.Function.Name && x.Function.Arguments == y.Function.Arguments
		})
}

// span is the byte range of one call in the log, and its first line.
type span struct{ start, end, line int }

// jsonLines splits data into its lines that are not blank (JSONL, one
// call a line): each line's span, without its '\n', numbered from 1.
func jsonLines(data []byte) []span {
	var lines []span
	for start, line := 0, 1; start < len(data); line++ {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i
		}
		if len(bytes.TrimSpace(data[start:end])) > 0 {
			lines = append(lines, span{start, end, line})
		}
		start = end + 1
	}
	return lines
}
