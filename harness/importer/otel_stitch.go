package importer

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
)

// conversation is the chat calls of one or more traces, each call's input
// extending the one before it with its output.
type conversation struct {
	traces []string // traceIds, in the order their first call started
	calls  []*chatCall
	last   int    // the index among the chat spans of its last call
	key    uint64 // endKey of its last call
	err    error  // the first call of one of its traces that does not extend the one before
}

// stitch groups the chat calls (of chats, by start) into conversations
// and returns the one the trace imports. The calls of one traceId are one
// conversation: each must extend the one before it, else that trace is
// refused at the message that differs (when it is the one imported). A
// trace whose first call extends the last call of an earlier conversation
// continues it: an instrumented application without a parent span makes
// each call a trace of its own. When it extends several, the longest is
// continued, and of equally long ones the one continued last. One conversation is
// imported as it is; of several, t.traceID picks the one that holds that
// trace, and without it the error lists them.
func (t *parsedTrace) stitch(chats []*otelSpan, calls []*chatCall) ([]*chatCall, error) {
	var order []string
	byTrace := map[string][]int{}
	for k, s := range chats {
		if _, ok := byTrace[s.traceID]; !ok {
			order = append(order, s.traceID)
		}
		byTrace[s.traceID] = append(byTrace[s.traceID], k)
	}
	var convs []*conversation
	ends := map[uint64][]*conversation{} // conversations by the key of their last call's input and output
	for _, id := range order {
		ks := byTrace[id]
		var err error
		for i := 1; i < len(ks) && err == nil; i++ {
			err = t.extends(calls[ks[i-1]], calls[ks[i]])
		}
		own := make([]*chatCall, len(ks))
		for i, k := range ks {
			own[i] = calls[k]
		}
		c := continued(ends, own[0])
		if c != nil && err == nil && c.err == nil {
			ends[c.key] = remove(ends[c.key], c)
			c.traces, c.calls, c.last = append(c.traces, id), append(c.calls, own...), ks[len(ks)-1]
		} else {
			c = &conversation{traces: []string{id}, calls: own, last: ks[len(ks)-1], err: err}
			convs = append(convs, c)
		}
		c.key = endKey(c.calls[len(c.calls)-1])
		ends[c.key] = append(ends[c.key], c)
	}
	c, err := t.pick(convs)
	if err != nil {
		return nil, err
	}
	return c.calls, c.err
}

// continued returns the conversation whose last call first extends (its
// input starts with that call's input and output): the longest such, and
// of those the one continued last, or nil. Each prefix of first's input is
// looked up by its key, so the search is linear in first's input whatever
// the number of conversations; a match is checked message by message.
func continued(ends map[uint64][]*conversation, first *chatCall) *conversation {
	var found *conversation
	var k uint64
	for i, m := range first.req {
		k = chainKey(k, m)
		cs := ends[k]
		for j := len(cs) - 1; j >= 0; j-- {
			prev := cs[j].calls[len(cs[j].calls)-1]
			if len(prev.req) == i && isPrefix(append(slices.Clip(prev.req), prev.reply), first.req) {
				found = cs[j]
				break
			}
		}
	}
	return found
}

// remove returns cs without c, looked for from the end (where continued
// finds it).
func remove(cs []*conversation, c *conversation) []*conversation {
	for j := len(cs) - 1; j >= 0; j-- {
		if cs[j] == c {
			return slices.Delete(cs, j, j+1)
		}
	}
	return cs
}

// isPrefix tells whether msgs start with want, message by message as
// sameMessage compares them.
func isPrefix(want, msgs []traceMessage) bool {
	return len(want) <= len(msgs) && slices.EqualFunc(want, msgs[:len(want)], sameMessage)
}

// endKey is the key of a call's input and output, one message after the
// other (see chainKey).
func endKey(c *chatCall) uint64 {
	var k uint64
	for _, m := range c.req {
		k = chainKey(k, m)
	}
	return chainKey(k, c.reply)
}

// chainKey extends the key k of a list of messages with m: FNV-1a over k
// and what sameMessage compares (role, text, tool_call_id, tool calls),
// each field's length first.
func chainKey(k uint64, m traceMessage) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], k)
	h.Write(b[:])
	field := func(s string) {
		binary.LittleEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	field(m.Role)
	field(m.text)
	field(m.ToolCallID)
	for _, tc := range m.ToolCalls {
		field(tc.ID)
		field(tc.Function.Name)
		field(tc.Function.Arguments)
	}
	return h.Sum64()
}

// pick returns the conversation to import (see stitch).
func (t *parsedTrace) pick(convs []*conversation) (*conversation, error) {
	if t.traceID != "" {
		var all []string
		for _, c := range convs {
			if slices.Contains(c.traces, t.traceID) {
				return c, nil
			}
			all = append(all, c.traces...)
		}
		return nil, fmt.Errorf("%s: --trace-id %s: no chat span of that trace (chat spans of traces %s)", t.shown(), t.traceID, clipAll(all))
	}
	if len(convs) == 1 {
		return convs[0], nil
	}
	var parts []string
	for i, c := range convs {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(convs)-10))
			break
		}
		parts = append(parts, c.describe())
	}
	return nil, fmt.Errorf("%s: %d conversations: %s; import one with --trace-id ID", t.shown(), len(convs), strings.Join(parts, ", "))
}

// describe names a conversation in the list of pick's error: its first
// traceId, how many more, its calls, and its first user message.
func (c *conversation) describe() string {
	s := fmt.Sprintf("traceId %q (", harness.Clip(c.traces[0]))
	if more := len(c.traces) - 1; more > 0 {
		s += fmt.Sprintf("and %d more trace%s; ", more, plural(more))
	}
	s += fmt.Sprintf("%d chat span%s", len(c.calls), plural(len(c.calls)))
	for _, m := range c.calls[0].req {
		if m.Role == "user" {
			return s + fmt.Sprintf(", from %q)", harness.Clip(m.text))
		}
	}
	return s + ")"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// clipAll lists ids, each clipped, at most 20 then how many more.
func clipAll(ids []string) string {
	var out []string
	for i, id := range ids {
		if i == 20 {
			out = append(out, fmt.Sprintf("and %d more", len(ids)-20))
			break
		}
		out = append(out, harness.Clip(id))
	}
	return strings.Join(out, ", ")
}

// shown names the trace's files in an error without a position.
func (t *parsedTrace) shown() string {
	return strings.Join(t.fileNames(), ", ")
}

// fileNames are the names of the trace's files, as the user gave them.
func (t *parsedTrace) fileNames() []string {
	if len(t.segs) == 0 {
		return []string{t.name}
	}
	var out []string
	for _, s := range t.segs {
		out = append(out, s.name)
	}
	return out
}

// importHint is the import command that adds a file to the ones given,
// typed where the user stands: the program as they run it, the files
// they gave (quoted for a shell), and the missing file's placeholder
// (SPANS.json before them or LOGS.json after them), the one name toolout
// cannot know.
func (t *parsedTrace) importHint(missing string) string {
	args := []string{cmp.Or(t.command, harness.DefaultCommand), "import"}
	for _, n := range t.fileNames() {
		args = append(args, harness.ShellQuote(n))
	}
	if missing == "SPANS.json" {
		args = slices.Insert(args, 2, missing)
	} else {
		args = append(args, missing)
	}
	return strings.Join(args, " ")
}
