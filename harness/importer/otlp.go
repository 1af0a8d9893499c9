package importer

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"strings"

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
	n        *jnode // the span object
	name     string
	traceID  string
	spanID   string
	start    uint64            // startTimeUnixNano
	order    int               // its place in the file
	attrs    map[string]*jnode // attribute values (AnyValue) by key
	events   []otelEvent
	eventsAt int // offset of the list of events, or of the span
}

// otelEvent is one event of a span: its name, time and attributes (for a
// log record, its body as the attribute gen_ai.event.content).
type otelEvent struct {
	n     *jnode
	name  string
	time  uint64
	attrs map[string]*jnode
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
func (t *parsedTrace) otelDocs() ([]*jnode, error) {
	var docs []*jnode
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
func (t *parsedTrace) lineDocs(from, to, at int, msg string) ([]*jnode, error) {
	var docs []*jnode
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
func (t *parsedTrace) otelSpans(docs []*jnode) ([]*otelSpan, error) {
	var spans []*otelSpan
	var logs []otelLog
	for _, doc := range docs {
		if doc.kind != '{' {
			return nil, t.errorf(doc.at, "want an OTLP JSON export, {\"resourceSpans\": [...]}, got %s", jsonKind(doc.kind))
		}
		rss, rls := doc.get("resourceSpans"), doc.get("resourceLogs")
		if rss == nil && rls == nil {
			return nil, t.errorf(doc.at, "want an OTLP JSON export, {\"resourceSpans\": [...]}: no \"resourceSpans\"")
		}
		t.logRecords(rls, &logs)
		for i, rs := range t.listOf(rss, "resourceSpans") {
			what := fmt.Sprintf("resourceSpans[%d]", i)
			for j, ss := range t.listOf(t.objectOf(rs, what).get("scopeSpans"), what+".scopeSpans") {
				what := fmt.Sprintf("%s.scopeSpans[%d]", what, j)
				for k, sp := range t.listOf(t.objectOf(ss, what).get("spans"), what+".spans") {
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
			return nil, t.errorf(l.event.n.at, "log record %s: spanId %q names no span of the files: export the spans with their events, "+
				"or give the spans' file too: %s", l.event.name, harness.Clip(l.spanID), t.importHint("SPANS.json"))
		}
		s.events = append(s.events, l.event)
	}
	return spans, nil
}

// logRecords reads the GenAI events among the log records of
// resourceLogs (the per-message events and gen_ai.choice; their name in
// eventName or the attribute event.name), each with its body.
func (t *parsedTrace) logRecords(rls *jnode, logs *[]otelLog) {
	for i, rl := range t.listOf(rls, "resourceLogs") {
		what := fmt.Sprintf("resourceLogs[%d]", i)
		for j, sl := range t.listOf(t.objectOf(rl, what).get("scopeLogs"), what+".scopeLogs") {
			what := fmt.Sprintf("%s.scopeLogs[%d]", what, j)
			for k, r := range t.listOf(t.objectOf(sl, what).get("logRecords"), what+".logRecords") {
				rw := fmt.Sprintf("%s.logRecords[%d]", what, k)
				if t.objectOf(r, rw); t.err != nil {
					return
				}
				attrs := t.attributes(r.get("attributes"), rw+".attributes")
				name := t.stringField(r, "eventName", rw)
				if v := attrs["event.name"]; name == "" && v != nil && t.err == nil {
					conv, err := t.anyValue(v, rw+": event.name")
					name, t.err = conv.textOr(""), err
				}
				if _, ok := eventRoles[name]; (!ok && name != eventChoice) || t.err != nil {
					continue
				}
				body := r.get("body")
				if body == nil {
					t.err = t.errorf(r.at, "%s (%s): no body: the event's fields are its body", rw, name)
					return
				}
				ev := otelEvent{n: r, name: name, time: cmp.Or(t.timeField(r, "timeUnixNano", rw), t.timeField(r, "observedTimeUnixNano", rw)),
					attrs: map[string]*jnode{"gen_ai.event.content": body}}
				*logs = append(*logs, otelLog{ev, t.stringField(r, "spanId", rw)})
			}
		}
	}
}

// textOr returns a string node's text, or else def.
func (n *jnode) textOr(def string) string {
	if n == nil || n.kind != '"' {
		return def
	}
	return n.text
}

// The walk's helpers record the first error in t.err and go on with
// nothing, so that a walk reads as the structure it walks.

// listOf returns the items of n, a list (absent: none), or records an error.
func (t *parsedTrace) listOf(n *jnode, what string) []*jnode {
	if n == nil || t.err != nil {
		return nil
	}
	if n.kind != '[' {
		t.err = t.errorf(n.at, "field %s: want a list, got %s", what, jsonKind(n.kind))
		return nil
	}
	return n.kids
}

// objectOf returns n if it is an object, or records an error.
func (t *parsedTrace) objectOf(n *jnode, what string) *jnode {
	if t.err == nil && n.kind != '{' {
		t.err = t.errorf(n.at, "%s: want an object, got %s", what, jsonKind(n.kind))
	}
	return n
}

// span reads one span object.
func (t *parsedTrace) span(n *jnode, what string, spans *[]*otelSpan) {
	if t.objectOf(n, what); t.err != nil {
		return
	}
	s := &otelSpan{n: n, order: len(*spans), eventsAt: n.at}
	s.name = t.stringField(n, "name", what)
	s.traceID = t.stringField(n, "traceId", what)
	s.spanID = t.stringField(n, "spanId", what)
	s.start = t.timeField(n, "startTimeUnixNano", what)
	s.attrs = t.attributes(n.get("attributes"), what+".attributes")
	if evs := n.get("events"); evs != nil {
		s.eventsAt = evs.at
	}
	if t.spanEvents(s, n.get("events"), what+".events"); t.err == nil {
		*spans = append(*spans, s)
	}
}

// spanEvents reads the span's list of events evs (absent: none), built
// an event at a time (the export's tree leaves it lazy: a span of 50,000
// events was a tree of 5 times their bytes). An event keeps its name,
// time, position and the values of its attributes, not its whole tree.
func (t *parsedTrace) spanEvents(s *otelSpan, evs *jnode, what string) {
	if evs == nil || t.err != nil {
		return
	}
	if evs.kind != '[' {
		t.err = t.errorf(evs.at, "field %s: want a list, got %s", what, jsonKind(evs.kind))
		return
	}
	_ = evs.each(func(i int, e *jnode) error {
		ew := fmt.Sprintf("%s[%d]", what, i)
		if t.objectOf(e, ew); t.err != nil {
			return t.err
		}
		s.events = append(s.events, otelEvent{n: &jnode{kind: e.kind, at: e.at}, name: t.stringField(e, "name", ew),
			time: t.timeField(e, "timeUnixNano", ew), attrs: t.attributes(e.get("attributes"), ew+".attributes")})
		return t.err
	})
}

// stringField returns obj's string member key ("" when absent).
func (t *parsedTrace) stringField(obj *jnode, key, what string) string {
	v := obj.get(key)
	if v == nil || t.err != nil {
		return ""
	}
	if v.kind != '"' {
		t.err = t.errorf(v.at, "field %s.%s: want a string, got %s", what, key, jsonKind(v.kind))
	}
	return v.text
}

// timeField returns obj's member key, nanoseconds since the epoch as a
// string of digits or a number (0 when absent).
func (t *parsedTrace) timeField(obj *jnode, key, what string) uint64 {
	v := obj.get(key)
	if v == nil || t.err != nil {
		return 0
	}
	n, err := strconv.ParseUint(v.text, 10, 64)
	if v.kind != '"' && v.kind != '0' || err != nil {
		t.err = t.errorf(v.at, "field %s.%s: want nanoseconds since the epoch, a string of digits", what, key)
	}
	return n
}

// attributes reads a list of {"key": ..., "value": AnyValue} into a map
// (the last of a repeated key wins); the values stay AnyValue nodes.
func (t *parsedTrace) attributes(list *jnode, what string) map[string]*jnode {
	attrs := map[string]*jnode{}
	for i, kv := range t.listOf(list, what) {
		w := fmt.Sprintf("%s[%d]", what, i)
		if t.objectOf(kv, w); t.err != nil {
			return attrs
		}
		key, v := kv.get("key"), kv.get("value")
		switch {
		case key == nil || key.kind != '"':
			t.err = t.errorf(kv.at, "%s: want {\"key\": \"...\", \"value\": {...}}: no string \"key\"", w)
		case v == nil:
			t.err = t.errorf(kv.at, "%s (%s): no \"value\"", w, key.text)
		default:
			attrs[key.text] = v
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
func (t *parsedTrace) anyValue(v *jnode, what string) (*jnode, error) {
	if v.kind != '{' {
		return nil, t.errorf(v.at, "%s: want an AnyValue, {\"stringValue\": ...}, got %s", what, jsonKind(v.kind))
	}
	if len(v.kids) == 0 {
		return &jnode{kind: 'n', at: v.at}, nil
	}
	if len(v.kids) > 1 {
		return nil, t.errorf(v.at, "%s: an AnyValue holds one field, got %d (%s)", what, len(v.kids), strings.Join(v.keys, ", "))
	}
	key, x := v.keys[len(v.keys)-1], v.kids[len(v.kids)-1]
	want := map[string]string{"stringValue": `"`, "bytesValue": `"`, "boolValue": "tf", "intValue": `"0`, "doubleValue": "0",
		"arrayValue": "{", "kvlistValue": "{"}[key]
	switch {
	case want == "":
		return nil, t.errorf(v.at, "%s: %q is not a field of an AnyValue (stringValue, intValue, doubleValue, boolValue, bytesValue, arrayValue, kvlistValue)", what, key)
	case !bytes.ContainsRune([]byte(want), rune(x.kind)):
		return nil, t.errorf(x.at, "%s: %s: want %s, got %s", what, key, jsonKind(want[0]), jsonKind(x.kind))
	case key == "intValue":
		if _, err := strconv.ParseInt(x.text, 10, 64); err != nil {
			return nil, t.errorf(x.at, "%s: intValue %q: want an integer", what, x.text)
		}
		return &jnode{kind: '0', at: x.at, text: x.text}, nil
	case key != "arrayValue" && key != "kvlistValue":
		return x, nil
	}
	out := &jnode{kind: '[', at: x.at}
	if key == "kvlistValue" {
		out.kind = '{'
	}
	values := x.get("values")
	if values != nil && values.kind != '[' {
		return nil, t.errorf(values.at, "%s: %s.values: want a list, got %s", what, key, jsonKind(values.kind))
	}
	for i, item := range values.list() {
		w := fmt.Sprintf("%s.%s.values[%d]", what, key, i)
		if key == "kvlistValue" {
			k, val := item.get("key"), item.get("value")
			if item.kind != '{' || k == nil || k.kind != '"' {
				return nil, t.errorf(item.at, "%s: want {\"key\": \"...\", \"value\": {...}}", w)
			}
			out.keys, item, w = append(out.keys, k.text), val, w+" ("+k.text+")"
			if item == nil {
				item = &jnode{kind: '{', at: k.at} // no value: none
			}
		}
		conv, err := t.anyValue(item, w)
		if err != nil {
			return nil, err
		}
		out.kids = append(out.kids, conv)
	}
	return out, nil
}

// list returns a list node's items (none for nil).
func (n *jnode) list() []*jnode {
	if n == nil {
		return nil
	}
	return n.kids
}
