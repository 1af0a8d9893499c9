package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
)

// conversation is the chat calls of one or more traces, each call's input
// extending the one before it with its output.
type conversation struct {
	traces []string // traceIds, in the order their first call started
	calls  []*chatCall
	last   int   // the index among the chat spans of its last call
	err    error // the first call of one of its traces that does not extend the one before
}

// stitch groups the chat calls (of chats, by start) into conversations
// and returns the one the trace imports. The calls of one traceId are one
// conversation: each must extend the one before it, else that trace is
// refused at the message that differs (when it is the one imported). A
// trace whose first call extends the last call of an earlier conversation
// continues it: an instrumented application without a parent span makes
// each call a trace of its own. When several conversations extend, the
// one whose last call started latest is continued. One conversation is
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
		if c := continued(t, convs, own[0]); c != nil && err == nil && c.err == nil {
			c.traces, c.calls, c.last = append(c.traces, id), append(c.calls, own...), ks[len(ks)-1]
			continue
		}
		convs = append(convs, &conversation{traces: []string{id}, calls: own, last: ks[len(ks)-1], err: err})
	}
	c, err := t.pick(convs)
	if err != nil {
		return nil, err
	}
	return c.calls, c.err
}

// continued returns the conversation whose last call first extends, the
// one whose last call started latest, or nil.
func continued(t *parsedTrace, convs []*conversation, first *chatCall) *conversation {
	var found *conversation
	for _, c := range convs {
		if t.extends(c.calls[len(c.calls)-1], first) == nil && (found == nil || c.last > found.last) {
			found = c
		}
	}
	return found
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
	if len(t.segs) == 0 {
		return t.name
	}
	var out []string
	for _, s := range t.segs {
		out = append(out, s.name)
	}
	return strings.Join(out, ", ")
}
