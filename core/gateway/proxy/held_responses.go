package proxy

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/jsonspan"
)

// shown is what a live round sent the client before the expand loop ran:
// what the continuation of its stream must follow.
type shown struct {
	blocks int      // Anthropic content blocks started
	events int      // Responses API events: the next sequence_number
	added  int      // Responses API output items added: the next output_index
	items  [][]byte // Responses API output items done, in order
}

// note counts what the events of evs, sent to the client, started.
func (s *shown) note(evs []byte) {
	s.blocks += bytes.Count(evs, []byte(`"content_block_start"`))
	if !bytes.Contains(evs, []byte(`"response.`)) {
		return
	}
	rd := bufio.NewReader(bytes.NewReader(evs))
	for {
		ev, err := readEvent(rd)
		if len(ev) > 0 {
			s.noteResponses(ev)
		}
		if err != nil {
			return
		}
	}
}

// noteResponses counts one Responses API event.
func (s *shown) noteResponses(ev []byte) {
	data, _ := eventData(ev)
	root, err := jsonspan.Parse(data)
	if err != nil || !strings.HasPrefix(root.Get("type").Text(), "response.") {
		return
	}
	s.events++
	switch root.Get("type").Text() {
	case "response.output_item.added":
		s.added++
	case "response.output_item.done":
		if it := root.Get("item"); it != nil && it.Kind == '{' {
			s.items = append(s.items, bytes.Clone(data[it.Start:it.End]))
		}
	}
}

// responsesStart are the Responses API events that open a stream: a
// continuation drops them, the client has its response.
var responsesStart = map[string]bool{"response.created": true, "response.in_progress": true, "response.queued": true}

// responsesEnd are the Responses API events whose response ends a stream.
var responsesEnd = map[string]bool{"response.completed": true, "response.incomplete": true, "response.failed": true}

// continueResponses makes an event of a re-streamed Responses answer
// follow what s sent: its sequence_number is the next one (s counts it),
// its output_index comes after the items sent, and the terminal event's
// response lists the items sent before its own, so that the response the
// client accumulates holds both.
func (s *shown) continueResponses(ev []byte, kind string) []byte {
	data, at := eventData(ev)
	root, err := jsonspan.Parse(data)
	if err != nil || root.Kind != '{' {
		return ev
	}
	var edits []jsonspan.Edit
	shift := func(n *jsonspan.Node, by int) {
		if n == nil || n.Kind != 'n' || by == 0 {
			return
		}
		if v, err := strconv.Atoi(string(data[n.Start:n.End])); err == nil && v >= 0 {
			edits = append(edits, jsonspan.Edit{Start: n.Start, End: n.End, Text: strconv.AppendInt(nil, int64(v+by), 10)})
		}
	}
	if n := root.Get("sequence_number"); n != nil && n.Kind == 'n' {
		edits = append(edits, jsonspan.Edit{Start: n.Start, End: n.End, Text: strconv.AppendInt(nil, int64(s.events), 10)})
	}
	s.events++
	shift(root.Get("output_index"), s.added)
	if out := root.Get("response").Get("output"); responsesEnd[kind] && out != nil && out.Kind == '[' && len(s.items) > 0 {
		text := bytes.Join(s.items, []byte(","))
		if len(out.Vals) > 0 {
			text = append(text, ',')
		}
		edits = append(edits, jsonspan.Edit{Start: out.Start + 1, End: out.Start + 1, Text: text})
	}
	if len(edits) == 0 {
		return ev
	}
	edited := jsonspan.Splice(data, edits)
	return append(append(append([]byte(nil), ev[:at]...), edited...), ev[at+len(data):]...)
}

// scrub returns events about to be sent with the response object of each
// Responses API event that names the phantom tool (response.created,
// in_progress and completed echo the request's tools, expand_context
// among them) put through the wire's StripPhantom; every other event, and
// every other byte, as they are.
func scrub(evs []byte, wire gateway.Wire) []byte {
	if !bytes.Contains(evs, []byte(gateway.ExpandToolName)) || !bytes.Contains(evs, []byte(`"response.`)) {
		return evs
	}
	var out []byte
	rd := bufio.NewReader(bytes.NewReader(evs))
	for {
		ev, err := readEvent(rd)
		if len(ev) > 0 {
			out = append(out, scrubEvent(ev, wire)...)
		}
		if err != nil {
			return out
		}
	}
}

func scrubEvent(ev []byte, wire gateway.Wire) []byte {
	if !bytes.Contains(ev, []byte(gateway.ExpandToolName)) {
		return ev
	}
	data, at := eventData(ev)
	root, err := jsonspan.Parse(data)
	if err != nil || !strings.HasPrefix(root.Get("type").Text(), "response.") {
		return ev
	}
	r := root.Get("response")
	if r == nil || r.Kind != '{' {
		return ev
	}
	stripped, err := wire.StripPhantom(data[r.Start:r.End])
	if err != nil {
		return ev
	}
	edited := jsonspan.Splice(data, []jsonspan.Edit{{Start: r.Start, End: r.End, Text: stripped}})
	return append(append(append([]byte(nil), ev[:at]...), edited...), ev[at+len(data):]...)
}
