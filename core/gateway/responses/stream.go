package responses

import (
	"bytes"
	"errors"
	"slices"
	"strconv"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/sse"
	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
)

// EncodeStream renders a core.Response as the event stream of
// [EncodeResponse]'s response object ([StreamOf]).
func EncodeStream(resp core.Response, id, model string) []byte {
	out, _ := StreamOf(EncodeResponse(resp, id, model)) // EncodeResponse writes what StreamOf reads
	return out
}

// writer writes events with their sequence numbers.
type writer struct {
	b   bytes.Buffer
	seq int
}

// event writes one event: "event: TYPE", then "data: " and an object whose
// "type" and "sequence_number" come first, then the members of rest (raw
// JSON members, already joined by commas).
func (w *writer) event(typ string, rest ...[]byte) {
	w.b.WriteString("event: " + typ + "\ndata: {\"type\":\"" + typ + "\",\"sequence_number\":" + strconv.Itoa(w.seq))
	w.seq++
	for _, r := range rest {
		w.b.WriteByte(',')
		w.b.Write(r)
	}
	w.b.WriteString("}\n\n")
}

// member returns "key":raw.
func member(key string, raw []byte) []byte {
	return append(append(jsonspan.String(key), ':'), raw...)
}

// StreamOf renders a Responses API response object as the event stream
// the API sends for it: response.created and response.in_progress (the
// response with status "in_progress", no output and null usage), then for
// each output item response.output_item.added (a message with no content,
// a call with empty arguments or input, status "in_progress"; any other
// item as it is), for a message each part's response.content_part.added,
// its text in one response.output_text.delta (response.refusal.delta for
// a refusal) and its .done, response.content_part.done; for a
// function_call response.function_call_arguments.delta and .done, for a
// custom_tool_call response.custom_tool_call_input.delta and .done; then
// response.output_item.done with the item as the body has it; last
// response.completed (response.incomplete or response.failed by the
// status) with the body as it is. Every value is copied from the body
// byte for byte, so [Assemble] of the stream gives the body back; line
// ends between the body's tokens (a pretty-printed body) become spaces,
// since an event's data is one line. An output item that is not an
// object is an error with its position.
func StreamOf(body []byte) ([]byte, error) {
	body = oneLineJSON(body)
	n, err := parse(body, "response")
	if err != nil {
		return nil, err
	}
	root := value{b: body, n: n}
	ov := root.key("output")
	if ov.n == nil || ov.n.Kind != '[' {
		return nil, locate(ov.want("an array of output items"), "response", body)
	}
	if err := objectItems(ov); err != nil {
		return nil, locate(err, "response", body)
	}
	var w writer
	start := startResponse(body, n)
	w.event("response.created", member("response", start))
	w.event("response.in_progress", member("response", start))
	for i, it := range ov.items() {
		w.item(body, it.n, i)
	}
	terminal := "response.completed"
	switch n.Get("status").Text() {
	case "incomplete":
		terminal = "response.incomplete"
	case "failed":
		terminal = "response.failed"
	}
	w.event(terminal, member("response", body[n.Start:n.End]))
	return w.b.Bytes(), nil
}

// startResponse is the response as response.created shows it.
func startResponse(body []byte, n *jsonspan.Node) []byte {
	edits := []jsonspan.Edit{replace(n.Get("output"), "[]")}
	if s := n.Get("status"); s != nil {
		edits = append(edits, replace(s, `"in_progress"`))
	}
	if u := n.Get("usage"); u != nil {
		edits = append(edits, replace(u, "null"))
	}
	return jsonspan.Splice(body[n.Start:n.End], shift(edits, n.Start))
}

func replace(n *jsonspan.Node, text string) jsonspan.Edit {
	return jsonspan.Edit{Start: n.Start, End: n.End, Text: []byte(text)}
}

// shift moves edits of a body to a slice of it that starts at off.
func shift(edits []jsonspan.Edit, off int) []jsonspan.Edit {
	for i := range edits {
		edits[i].Start -= off
		edits[i].End -= off
	}
	return edits
}

// item writes the events of output item it at index i.
func (w *writer) item(body []byte, it *jsonspan.Node, i int) {
	raw := body[it.Start:it.End]
	idx := member("output_index", []byte(strconv.Itoa(i)))
	itemID := []byte(`""`)
	if id := it.Get("id"); id != nil && id.Kind == '"' {
		itemID = body[id.Start:id.End]
	}
	at := member("item_id", itemID)
	typ := it.Get("type").Text()
	var edits []jsonspan.Edit
	if s := it.Get("status"); s != nil && (typ == TypeMessage || typ == TypeFunctionCall || typ == TypeCustomToolCall) {
		edits = append(edits, replace(s, `"in_progress"`))
	}
	field := map[string]string{TypeMessage: "content", TypeFunctionCall: "arguments", TypeCustomToolCall: "input"}[typ]
	f := it.Get(field)
	if f != nil && (f.Kind == '[' || f.Kind == '"') {
		empty := `""`
		if f.Kind == '[' {
			empty = "[]"
		}
		edits = append(edits, replace(f, empty))
	} else {
		f = nil
	}
	w.event("response.output_item.added", idx, member("item", jsonspan.Splice(raw, shift(edits, it.Start))))
	switch {
	case f == nil:
	case typ == TypeMessage:
		for j, p := range f.Vals {
			w.part(body, p, at, idx, j)
		}
	case typ == TypeFunctionCall:
		w.event("response.function_call_arguments.delta", at, idx, member("delta", body[f.Start:f.End]))
		rest := [][]byte{at, idx}
		if name := it.Get("name"); name != nil {
			rest = append(rest, member("name", body[name.Start:name.End]))
		}
		w.event("response.function_call_arguments.done", append(rest, member("arguments", body[f.Start:f.End]))...)
	case typ == TypeCustomToolCall:
		w.event("response.custom_tool_call_input.delta", at, idx, member("delta", body[f.Start:f.End]))
		w.event("response.custom_tool_call_input.done", at, idx, member("input", body[f.Start:f.End]))
	}
	w.event("response.output_item.done", idx, member("item", raw))
}

// part writes the events of content part p (index j) of a message.
func (w *writer) part(body []byte, p *jsonspan.Node, at, idx []byte, j int) {
	raw := body[p.Start:p.End]
	ci := member("content_index", []byte(strconv.Itoa(j)))
	typ := p.Get("type").Text()
	key := map[string]string{"output_text": "text", "refusal": "refusal"}[typ]
	t := p.Get(key)
	if key == "" || t == nil || t.Kind != '"' {
		w.event("response.content_part.added", at, idx, ci, member("part", raw))
		w.event("response.content_part.done", at, idx, ci, member("part", raw))
		return
	}
	added := jsonspan.Splice(raw, shift([]jsonspan.Edit{replace(t, `""`)}, p.Start))
	text := body[t.Start:t.End]
	w.event("response.content_part.added", at, idx, ci, member("part", added))
	if typ == "output_text" {
		lp := member("logprobs", []byte("[]"))
		w.event("response.output_text.delta", at, idx, ci, member("delta", text), lp)
		w.event("response.output_text.done", at, idx, ci, member("text", text), lp)
	} else {
		w.event("response.refusal.delta", at, idx, ci, member("delta", text))
		w.event("response.refusal.done", at, idx, ci, member("refusal", text))
	}
	w.event("response.content_part.done", at, idx, ci, member("part", raw))
}

// maxOutputIndex bounds an output_index Assemble keeps.
const maxOutputIndex = 1 << 20

// doneItem is an item of a response.output_item.done event.
type doneItem struct {
	index int
	raw   []byte
}

// Assemble turns a Responses API event stream into the response object
// the non-streaming API returns: the response of its terminal event
// (response.completed, response.incomplete or response.failed) byte for
// byte; when that response's output is empty or absent, the items of the
// response.output_item.done events take its place, in output_index order
// (some servers send the items only in their own events). Other events
// (deltas, added events, keep-alives) are not needed and are skipped,
// events after the terminal one too. A stream without a terminal event
// was cut ([ErrIncomplete]); an "error" event is an error with its code
// and message ([ErrStreamError]); an output item that is not an object,
// in the terminal response or an event, is an error, so that what
// Assemble returns [StreamOf] renders. Errors are [*Error] values with the
// position in raw.
func Assemble(raw []byte) ([]byte, error) {
	out, err := assemble(raw)
	if err != nil {
		return nil, locate(err, "stream", raw)
	}
	return out, nil
}

func assemble(raw []byte) ([]byte, error) {
	var final []byte
	var finalNode *jsonspan.Node
	var items []doneItem
	err := sse.Scan(raw, nil, func(e *sse.Event) error {
		if final != nil {
			return nil
		}
		n, err := jsonspan.Parse(e.Data)
		if err != nil {
			var se *jsonlex.SyntaxError
			off := 0
			if errors.As(err, &se) {
				off = se.Offset
			}
			return &Error{Offset: e.Offset(off), Event: e.Name, Msg: "data: invalid JSON: " + syntaxMsg(err)}
		}
		v := value{b: e.Data, n: n}
		fail := func(err error) error {
			var pe *Error
			if errors.As(err, &pe) {
				pe.Offset, pe.Event = e.Offset(pe.Offset), v.key("type").n.Text()
			}
			return err
		}
		if err := v.object("type"); err != nil {
			return fail(err)
		}
		typ, err := v.key("type").str()
		if err != nil {
			return fail(err)
		}
		switch typ {
		case "error":
			return fail(&Error{Offset: n.Start, Msg: streamError(v), Err: ErrStreamError})
		case "response.completed", "response.incomplete", "response.failed":
			r := v.key("response")
			if err := r.object(); err != nil {
				return fail(err)
			}
			if o := r.key("output"); !o.missing() && o.n.Kind != '[' {
				return fail(o.want("an array of output items"))
			} else if !o.missing() {
				if err := objectItems(o); err != nil {
					return fail(err)
				}
			}
			final, finalNode = bytes.Clone(r.raw()), rebase(r.n, r.n.Start)
		case "response.output_item.done":
			idx, err := v.key("output_index").optInt()
			if err == nil && idx > maxOutputIndex {
				err = v.key("output_index").fail("output_index over " + strconv.Itoa(maxOutputIndex))
			}
			if err != nil {
				return fail(err)
			}
			it := v.key("item")
			if err := it.object("type"); err != nil {
				return fail(err)
			}
			items = append(items, doneItem{idx, keep(it.raw(), e)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if final == nil {
		return nil, &Error{Offset: len(raw), Msg: "the stream ended before response.completed (cut)", Err: ErrIncomplete}
	}
	return withItems(final, finalNode, items), nil
}

// objectItems checks that every item of an output array is an object, as
// an output_item.done event's item must be.
func objectItems(output value) error {
	for _, it := range output.items() {
		if err := it.object("type"); err != nil {
			return err
		}
	}
	return nil
}

// rebase returns the output member of a response node parsed in a larger
// input, with its offsets moved to a copy of the response that starts at
// off; only the output member is kept.
func rebase(n *jsonspan.Node, off int) *jsonspan.Node {
	out := n.Get("output")
	r := &jsonspan.Node{Kind: '{', Start: 0, End: n.End - off}
	if out != nil {
		r.Keys = []string{"output"}
		r.Vals = []*jsonspan.Node{{Kind: out.Kind, Start: out.Start - off, End: out.End - off, Vals: out.Vals}}
		r.KeyStarts = []int{0}
	} else if len(n.Keys) > 0 {
		r.Keys, r.KeyStarts, r.Vals = []string{""}, []int{0}, []*jsonspan.Node{{}} // AddKey adds a comma
	}
	return r
}

// withItems puts the done items in the response's output when it has
// none.
func withItems(final []byte, n *jsonspan.Node, items []doneItem) []byte {
	out := n.Get("output")
	if len(items) == 0 || out != nil && len(out.Vals) > 0 {
		return final
	}
	// The last item sent at an index wins; the API sends them in order.
	last := make(map[int][]byte, len(items))
	indexes := make([]int, 0, len(items))
	for _, it := range items {
		if _, ok := last[it.index]; !ok {
			indexes = append(indexes, it.index)
		}
		last[it.index] = it.raw
	}
	if !slices.IsSorted(indexes) {
		slices.Sort(indexes)
	}
	list := make([][]byte, len(indexes))
	for k, i := range indexes {
		list[k] = last[i]
	}
	joined := append(append([]byte("["), bytes.Join(list, []byte(","))...), ']')
	if out == nil {
		return jsonspan.Splice(final, []jsonspan.Edit{jsonspan.AddKey(n, "output", joined)})
	}
	return jsonspan.Splice(final, []jsonspan.Edit{{Start: out.Start, End: out.End, Text: joined}})
}

// streamError words an error event: its code and message.
func streamError(v value) string {
	code := v.key("code").n.Text()
	msg := v.key("message").n.Text()
	if msg == "" {
		msg = v.key("error").key("message").n.Text()
	}
	if code == "" {
		code = v.key("error").key("code").n.Text()
	}
	s := "error event"
	if code != "" {
		s += " " + quote(oneLine(code))
	}
	return s + ": " + oneLine(msg)
}

// syntaxMsg is the message of a jsonspan error without its offset.
func syntaxMsg(err error) string {
	var se *jsonlex.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// oneLineJSON returns b with its line ends made spaces: in JSON they can
// only be white space between tokens (a string holds them escaped).
func oneLineJSON(b []byte) []byte {
	if !bytes.ContainsAny(b, "\r\n") {
		return b
	}
	out := bytes.Clone(b)
	for i, c := range out {
		if c == '\n' || c == '\r' {
			out[i] = ' '
		}
	}
	return out
}

// keep returns b, a view of an event's data, as a view of the stream when
// the data is one (the event has one data line), else as a copy: the
// buffer of a data of several lines is reused for the next event.
func keep(b []byte, e *sse.Event) []byte {
	if e.InStream() {
		return b
	}
	return bytes.Clone(b)
}
