package importer

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness"
)

// isOTel tells whether data's first value is an OTLP JSON export: an
// object with "resourceSpans" (or "resourceLogs": the events of a file
// that holds both).
func isOTel(data []byte) bool {
	start := skipSpace(data, 0)
	return start < len(data) && data[start] == '{' &&
		(child(data[start:], "resourceSpans") >= 0 || child(data[start:], "resourceLogs") >= 0)
}

// otelSpan is one span of an OTLP export, as the GenAI reader needs it.
type otelSpan struct {
	n        *jsonspan.Node // the span object
	name     string
	traceID  string
	spanID   string
	start    uint64                    // startTimeUnixNano
	order    int                       // its place in the file
	attrs    map[string]*jsonspan.Node // attribute values (AnyValue) by key
	events   []otelEvent
	eventsAt int // offset of the list of events, or of the span
}

// otelEvent is one event of a span: its name, time and attributes (for a
// log record, its body as the attribute gen_ai.event.content).
type otelEvent struct {
	n     *jsonspan.Node
	name  string
	time  uint64
	attrs map[string]*jsonspan.Node
}

// otelLog is a GenAI event exported as a log record, and the span it names.
type otelLog struct {
	event  otelEvent
	spanID string
}

// otelDocs returns the exports the trace's files hold as trees, file by
// file: a whole file when it is one JSON value, else each of its lines
// that is not blank (the OTel collector's file exporter writes one export
// a line); a blank file holds none. A file whose first line is not JSON by
// itself is taken as one value, and its syntax error named.
func (t *parsedTrace) otelDocs() ([]*jsonspan.Node, error) {
	var docs []*jsonspan.Node
	for _, f := range t.spans() {
		data := t.data[f.start:f.end]
		if len(t.segs) > 0 && len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		at, msg := syntaxOffset(data)
		if at < 0 {
			docs = append(docs, lazyTree(data, f.start, "events"))
			continue
		}
		lines, err := t.lineDocs(f.start, f.end, at, msg)
		if err != nil {
			return nil, err
		}
		docs = append(docs, lines...)
	}
	return docs, nil
}

// lineDocs returns the exports of the file at t.data[from:to], one a
// line; at and msg are the file's syntax error as one value.
func (t *parsedTrace) lineDocs(from, to, at int, msg string) ([]*jsonspan.Node, error) {
	var docs []*jsonspan.Node
	for start := from; start < to; {
		end := to
		if i := bytes.IndexByte(t.data[start:to], '\n'); i >= 0 {
			end = start + i
		}
		line := t.data[start:end]
		if len(bytes.TrimSpace(line)) > 0 {
			if lat, lmsg := syntaxOffset(line); lat >= 0 {
				if len(docs) == 0 {
					return nil, t.errorf(from+at, "%s", msg)
				}
				return nil, t.errorf(start+lat, "%s", lmsg)
			}
			docs = append(docs, lazyTree(line, start, "events"))
		}
		start = end + 1
	}
	return docs, nil
}

// otelSpans walks the exports' resourceSpans[].scopeSpans[].spans[], in
// file order, and gives each span the GenAI events of
// resourceLogs[].scopeLogs[].logRecords[] that name it.
func (t *parsedTrace) otelSpans(docs []*jsonspan.Node) ([]*otelSpan, error) {
	var spans []*otelSpan
	var logs []otelLog
	for _, doc := range docs {
		if doc.Kind != '{' {
			return nil, t.errorf(doc.Start, "want an OTLP JSON export, {\"resourceSpans\": [...]}, got %s", kindName(doc.Kind))
		}
		rss, rls := doc.Get("resourceSpans"), doc.Get("resourceLogs")
		if rss == nil && rls == nil {
			return nil, t.errorf(doc.Start, "want an OTLP JSON export, {\"resourceSpans\": [...]}: no \"resourceSpans\"")
		}
		t.logRecords(rls, &logs)
		for i, rs := range t.listOf(rss, "resourceSpans") {
			what := fmt.Sprintf("resourceSpans[%d]", i)
			for j, ss := range t.listOf(t.objectOf(rs, what).Get("scopeSpans"), what+".scopeSpans") {
				what := fmt.Sprintf("%s.scopeSpans[%d]", what, j)
				for k, sp := range t.listOf(t.objectOf(ss, what).Get("spans"), what+".spans") {
					t.span(sp, fmt.Sprintf("%s.spans[%d]", what, k), &spans)
				}
			}
		}
		if t.err != nil {
			return nil, t.err
		}
	}
	byID := map[string]*otelSpan{}
	for _, s := range spans {
		byID[cmp.Or(s.spanID, "-")] = s
	}
	for _, l := range logs {
		s := byID[l.spanID]
		if s == nil {
			return nil, t.errorf(l.event.n.Start, "log record %s: spanId %q names no span of the files: export the spans with their events, "+
				"or give the spans' file too: %s", l.event.name, harness.Clip(l.spanID), t.importHint("SPANS.json"))
		}
		s.events = append(s.events, l.event)
	}
	return spans, nil
}

// logRecords reads the GenAI events among the log records of
// resourceLogs (the per-message events and gen_ai.choice; their name in
// eventName or the attribute event.name), each with its body.
func (t *parsedTrace) logRecords(rls *jsonspan.Node, logs *[]otelLog) {
	for i, rl := range t.listOf(rls, "resourceLogs") {
		what := fmt.Sprintf("resourceLogs[%d]", i)
		for j, sl := range t.listOf(t.objectOf(rl, what).Get("scopeLogs"), what+".scopeLogs") {
			what := fmt.Sprintf("%s.scopeLogs[%d]", what, j)
			for k, r := range t.listOf(t.objectOf(sl, what).Get("logRecords"), what+".logRecords") {
				rw := fmt.Sprintf("%s.logRecords[%d]", what, k)
				if t.objectOf(r, rw); t.err != nil {
					return
				}
				attrs := t.attributes(r.Get("attributes"), rw+".attributes")
				name := t.stringField(r, "eventName", rw)
				if v := attrs["event.name"]; name == "" && v != nil && t.err == nil {
					conv, err := t.anyValue(v, rw+": event.name")
					name, t.err = conv.Text(), err
				}
				if _, ok := eventRoles[name]; (!ok && name != eventChoice) || t.err != nil {
					continue
				}
				body := r.Get("body")
				if body == nil {
					t.err = t.errorf(r.Start, "%s (%s): no body: the event's fields are its body", rw, name)
					return
				}
				ev := otelEvent{n: r, name: name, time: cmp.Or(t.timeField(r, "timeUnixNano", rw), t.timeField(r, "observedTimeUnixNano", rw)),
					attrs: map[string]*jsonspan.Node{"gen_ai.event.content": body}}
				*logs = append(*logs, otelLog{ev, t.stringField(r, "spanId", rw)})
			}
		}
	}
}

// The walk's helpers record the first error in t.err and go on with
// nothing, so that a walk reads as the structure it walks.

// listOf returns the items of n, a list (absent: none), or records an error.
func (t *parsedTrace) listOf(n *jsonspan.Node, what string) []*jsonspan.Node {
	if n == nil || t.err != nil {
		return nil
	}
	if n.Kind != '[' {
		t.err = t.errorf(n.Start, "field %s: want a list, got %s", what, kindName(n.Kind))
		return nil
	}
	return n.Vals
}

// objectOf returns n if it is an object, or records an error.
func (t *parsedTrace) objectOf(n *jsonspan.Node, what string) *jsonspan.Node {
	if t.err == nil && n.Kind != '{' {
		t.err = t.errorf(n.Start, "%s: want an object, got %s", what, kindName(n.Kind))
	}
	return n
}

// span reads one span object.
func (t *parsedTrace) span(n *jsonspan.Node, what string, spans *[]*otelSpan) {
	if t.objectOf(n, what); t.err != nil {
		return
	}
	s := &otelSpan{n: n, order: len(*spans), eventsAt: n.Start}
	s.name = t.stringField(n, "name", what)
	s.traceID = t.stringField(n, "traceId", what)
	s.spanID = t.stringField(n, "spanId", what)
	s.start = t.timeField(n, "startTimeUnixNano", what)
	s.attrs = t.attributes(n.Get("attributes"), what+".attributes")
	if evs := n.Get("events"); evs != nil {
		s.eventsAt = evs.Start
	}
	if t.spanEvents(s, n.Get("events"), what+".events"); t.err == nil {
		*spans = append(*spans, s)
	}
}

// spanEvents reads the span's list of events evs (absent: none), built
// an event at a time (the export's tree leaves it lazy: a span of 50,000
// events was a tree of 5 times their bytes). An event keeps its name,
// time, position and the values of its attributes, not its whole tree.
func (t *parsedTrace) spanEvents(s *otelSpan, evs *jsonspan.Node, what string) {
	if evs == nil || t.err != nil {
		return
	}
	if evs.Kind != '[' {
		t.err = t.errorf(evs.Start, "field %s: want a list, got %s", what, kindName(evs.Kind))
		return
	}
	_ = evs.Each(func(i int, e *jsonspan.Node) error {
		ew := fmt.Sprintf("%s[%d]", what, i)
		if t.objectOf(e, ew); t.err != nil {
			return t.err
		}
		s.events = append(s.events, otelEvent{n: &jsonspan.Node{Kind: e.Kind, Start: e.Start}, name: t.stringField(e, "name", ew),
			time: t.timeField(e, "timeUnixNano", ew), attrs: t.attributes(e.Get("attributes"), ew+".attributes")})
		return t.err
	})
}

// stringField returns obj's string member key ("" when absent).
func (t *parsedTrace) stringField(obj *jsonspan.Node, key, what string) string {
	v := obj.Get(key)
	if v == nil || t.err != nil {
		return ""
	}
	if v.Kind != '"' {
		t.err = t.errorf(v.Start, "field %s.%s: want a string, got %s", what, key, kindName(v.Kind))
	}
	return v.Str
}

// timeField returns obj's member key, nanoseconds since the epoch as a
// string of digits or a number (0 when absent).
func (t *parsedTrace) timeField(obj *jsonspan.Node, key, what string) uint64 {
	v := obj.Get(key)
	if v == nil || t.err != nil {
		return 0
	}
	n, err := strconv.ParseUint(v.Str, 10, 64)
	if v.Kind != '"' && v.Kind != 'n' || err != nil {
		t.err = t.errorf(v.Start, "field %s.%s: want nanoseconds since the epoch, a string of digits", what, key)
	}
	return n
}

// attributes reads a list of {"key": ..., "value": AnyValue} into a map
// (the last of a repeated key wins); the values stay AnyValue nodes.
func (t *parsedTrace) attributes(list *jsonspan.Node, what string) map[string]*jsonspan.Node {
	attrs := map[string]*jsonspan.Node{}
	for i, kv := range t.listOf(list, what) {
		w := fmt.Sprintf("%s[%d]", what, i)
		if t.objectOf(kv, w); t.err != nil {
			return attrs
		}
		key, v := kv.Get("key"), kv.Get("value")
		switch {
		case key == nil || key.Kind != '"':
			t.err = t.errorf(kv.Start, "%s: want {\"key\": \"...\", \"value\": {...}}: no string \"key\"", w)
		case v == nil:
			t.err = t.errorf(kv.Start, "%s (%s): no \"value\"", w, key.Str)
		default:
			attrs[key.Str] = v
		}
		if t.err != nil {
			return attrs
		}
	}
	return attrs
}

// anyValue converts an OTLP AnyValue ({"stringValue": "..."}, "intValue"
// (a string of digits, or a number), "doubleValue", "boolValue",
// "bytesValue", "arrayValue": {"values": [...]}, "kvlistValue": {"values":
// [{"key", "value"}]}, or {} for none) into the JSON value it stands for,
// positioned where it is written.
func (t *parsedTrace) anyValue(v *jsonspan.Node, what string) (*jsonspan.Node, error) {
	if v.Kind != '{' {
		return nil, t.errorf(v.Start, "%s: want an AnyValue, {\"stringValue\": ...}, got %s", what, kindName(v.Kind))
	}
	if len(v.Vals) == 0 {
		return &jsonspan.Node{Kind: '0', Start: v.Start}, nil
	}
	if len(v.Vals) > 1 {
		return nil, t.errorf(v.Start, "%s: an AnyValue holds one field, got %d (%s)", what, len(v.Vals), strings.Join(v.Keys, ", "))
	}
	key, x := v.Keys[len(v.Keys)-1], v.Vals[len(v.Vals)-1]
	want := map[string]string{"stringValue": `"`, "bytesValue": `"`, "boolValue": "tf", "intValue": `"n`, "doubleValue": "n",
		"arrayValue": "{", "kvlistValue": "{"}[key]
	switch {
	case want == "":
		return nil, t.errorf(v.Start, "%s: %q is not a field of an AnyValue (stringValue, intValue, doubleValue, boolValue, bytesValue, arrayValue, kvlistValue)", what, key)
	case !bytes.ContainsRune([]byte(want), rune(x.Kind)):
		return nil, t.errorf(x.Start, "%s: %s: want %s, got %s", what, key, kindName(want[0]), kindName(x.Kind))
	case key == "intValue":
		if _, err := strconv.ParseInt(x.Str, 10, 64); err != nil {
			return nil, t.errorf(x.Start, "%s: intValue %q: want an integer", what, x.Str)
		}
		return &jsonspan.Node{Kind: 'n', Start: x.Start, Str: x.Str}, nil
	case key != "arrayValue" && key != "kvlistValue":
		return x, nil
	}
	out := &jsonspan.Node{Kind: '[', Start: x.Start}
	if key == "kvlistValue" {
		out.Kind = '{'
	}
	values := x.Get("values")
	if values != nil && values.Kind != '[' {
		return nil, t.errorf(values.Start, "%s: %s.values: want a list, got %s", what, key, kindName(values.Kind))
	}
	for i, item := range values.Items() {
		w := fmt.Sprintf("%s.%s.values[%d]", what, key, i)
		if key == "kvlistValue" {
			k, val := item.Get("key"), item.Get("value")
			if item.Kind != '{' || k == nil || k.Kind != '"' {
				return nil, t.errorf(item.Start, "%s: want {\"key\": \"...\", \"value\": {...}}", w)
			}
			out.Keys, item, w = append(out.Keys, k.Str), val, w+" ("+k.Str+")"
			if item == nil {
				item = &jsonspan.Node{Kind: '{', Start: k.Start} // no value: none
			}
		}
		conv, err := t.anyValue(item, w)
		if err != nil {
			return nil, err
		}
		out.Vals = append(out.Vals, conv)
	}
	return out, nil
}
