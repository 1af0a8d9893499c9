package anthropic

import (
	"strconv"

	"github.com/toolout/toolout/core/gateway/sse"
)

// AssembleStream rebuilds, from a Messages API event stream, the message
// JSON the API would have returned without streaming: the message of
// message_start, its content blocks in index order with their text_delta
// texts and input_json_delta inputs joined, stop_reason and stop_sequence
// from message_delta, and the usage of message_start with the non-null
// values of each message_delta's usage over it. thinking blocks are their
// content_block_start thinking with the thinking_delta pieces joined and
// the signature of the last signature_delta (else of content_block_start);
// a redacted_thinking block is its content_block_start; both are kept as
// JSON string bytes, escapes as they came. The result is rendered as
// [EncodeResponse] renders (keys in the API's order, compact tool inputs).
//
// ping and unknown events are skipped. An `event: error` gives an [*Error]
// wrapping an [*APIError]; a stream that ends before message_stop one
// wrapping [ErrIncomplete]; a block other than text, tool_use, thinking or
// redacted_thinking, or a delta other than text_delta, input_json_delta,
// thinking_delta or signature_delta, one wrapping [ErrUnsupported]; a
// delta for a block of another type (thinking_delta for a text block, any
// delta for redacted_thinking), events out of order (a delta before its
// block starts or after it stops, anything after message_stop, ...) and
// malformed JSON are errors with the line and column in raw. Work and
// memory are linear in len(raw).
func AssembleStream(raw []byte) ([]byte, error) {
	var a assembler
	err := scanEvents(raw, a.event)
	if err == nil && !a.stopped {
		err = &Error{Offset: len(raw), Msg: "the stream ended before message_stop", Err: ErrIncomplete}
	}
	if err != nil {
		return nil, locate(err, "stream", raw)
	}
	for _, p := range a.blocks {
		a.msg.content = append(a.msg.content, p.block)
	}
	return a.msg.marshal(), nil
}

// assembler is the state of AssembleStream.
type assembler struct {
	msg              message
	started, stopped bool
	blocks           []*pending // by index
}

// pending is a content block being streamed.
type pending struct {
	block
	text    []byte // text block: its text so far
	json    []byte // tool_use block: its partial_json so far
	stopped bool
}

var eventKeys = []string{"type", "message", "index", "content_block", "delta", "usage", "error"}

// event handles one server-sent event; offsets in its errors are offsets
// in e.Data.
func (a *assembler) event(e *sse.Event) error {
	if !handled(e.Name) && e.Name != "" {
		return nil
	}
	r := reader{b: e.Data}
	f, err := readFields(&r, eventKeys)
	if err == nil {
		err = r.end()
	}
	typ := ""
	if err == nil {
		typ, err = f.str(0)
	}
	name := e.Name
	switch {
	case err != nil:
	case name == "":
		name = typ
	case f.has(0) && typ != name:
		err = within(r.fail(f.at[0], "want type "+quote(name)+", got "+quote(typ)), "type")
	}
	if err == nil && handled(name) {
		err = a.dispatch(name, f)
	}
	if pe, ok := err.(*Error); ok && pe.Event == "" {
		pe.Event = name
	}
	return err
}

func handled(name string) bool {
	switch name {
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop", "error":
		return true
	}
	return false
}

func (a *assembler) dispatch(name string, f fields) error {
	switch {
	case name == "error":
		var apiErr *APIError
		err := f.read(6, func(r *reader) (err error) { apiErr, err = readAPIError(r); return err })
		if err != nil {
			return err
		}
		if apiErr == nil {
			apiErr = &APIError{}
		}
		return &Error{Msg: "error: " + oneLine(apiErr.Type) + ": " + oneLine(apiErr.Message), Err: apiErr}
	case a.stopped:
		return f.r.fail(0, "event after message_stop")
	case name == "message_start":
		return a.start(f)
	case !a.started:
		return f.r.fail(0, "event before message_start")
	}
	switch name {
	case "content_block_start":
		return a.blockStart(f)
	case "content_block_delta":
		return a.blockDelta(f)
	case "content_block_stop":
		return a.blockStop(f)
	case "message_delta":
		return a.messageDelta(f)
	}
	for k, p := range a.blocks {
		if !p.stopped {
			return f.r.fail(0, "message_stop before content block "+strconv.Itoa(k)+" stopped")
		}
	}
	a.stopped = true
	return nil
}

func (a *assembler) start(f fields) error {
	if a.started {
		return f.r.fail(0, "a second message_start")
	}
	if !f.has(1) {
		return f.r.fail(0, "message_start without a message")
	}
	err := f.read(1, func(r *reader) error {
		r.peek()
		at := r.i
		m, err := readMessage(r)
		if err == nil && len(m.content) > 0 {
			err = unsupported(at, "message_start with content")
		}
		a.msg = m
		return err
	})
	a.started = true
	return err
}

// index reads the index of a block event.
func index(f fields) (int, error) {
	if !f.has(2) {
		return 0, f.r.fail(0, "no index")
	}
	n := 0
	err := f.read(2, func(r *reader) (err error) {
		if r.peek() == 'n' {
			return r.want("an integer")
		}
		n, err = r.integer()
		return err
	})
	return n, err
}

func (a *assembler) blockStart(f fields) error {
	i, err := index(f)
	if err != nil {
		return err
	}
	if i != len(a.blocks) {
		return within(f.r.fail(f.at[2], "content block "+strconv.Itoa(i)+" started after "+strconv.Itoa(len(a.blocks))+
			" block(s): want index "+strconv.Itoa(len(a.blocks))), "index")
	}
	if !f.has(3) {
		return f.r.fail(0, "content_block_start without a content_block")
	}
	p := &pending{}
	err = f.read(3, func(r *reader) (err error) { p.block, err = readBlock(r); return err })
	if err != nil {
		return err
	}
	p.text = append(p.text, p.block.text...)
	a.blocks = append(a.blocks, p)
	return nil
}

// open returns the started, not stopped block of a delta or stop event.
func (a *assembler) open(f fields) (*pending, int, error) {
	i, err := index(f)
	if err != nil {
		return nil, i, err
	}
	if i >= len(a.blocks) {
		return nil, i, within(f.r.fail(f.at[2], "content block "+strconv.Itoa(i)+" was not started"), "index")
	}
	p := a.blocks[i]
	if p.stopped {
		return nil, i, within(f.r.fail(f.at[2], "content block "+strconv.Itoa(i)+" was stopped"), "index")
	}
	return p, i, nil
}

var deltaKeys = []string{"type", "text", "partial_json", "thinking", "signature"}

func (a *assembler) blockDelta(f fields) error {
	p, _, err := a.open(f)
	if err != nil {
		return err
	}
	if !f.has(4) {
		return f.r.fail(0, "content_block_delta without a delta")
	}
	return f.read(4, func(r *reader) error {
		d, err := readFields(r, deltaKeys)
		if err != nil {
			return err
		}
		typ, err := d.str(0)
		switch {
		case err != nil:
			return err
		case typ == "text_delta" && p.typ == "text":
			text, err := d.str(1)
			p.text = append(p.text, text...)
			return err
		case typ == "input_json_delta" && p.typ == "tool_use":
			part, err := d.str(2)
			p.json = append(p.json, part...)
			return err
		case (typ == "thinking_delta" || typ == "signature_delta") && p.typ == "thinking":
			return p.thinkingDelta(d, typ)
		case typ == "text_delta" || typ == "input_json_delta" || typ == "thinking_delta" || typ == "signature_delta":
			return r.fail(d.start, typ+" for a "+p.typ+" block")
		case typ == "":
			return r.fail(d.start, "delta without a type")
		}
		return unsupported(d.start, "delta of type "+quote(typ))
	})
}

func (a *assembler) blockStop(f fields) error {
	p, i, err := a.open(f)
	if err != nil {
		return err
	}
	p.stopped = true
	switch p.typ {
	case "text":
		p.block.text = string(p.text)
		p.text = nil
		return nil
	case "thinking", "redacted_thinking":
		return nil // kept as they came
	}
	if len(p.json) == 0 {
		return nil // no input_json_delta: the input of content_block_start
	}
	r := reader{b: p.json}
	input, err := readInput(&r)
	if err == nil {
		err = r.end()
	}
	if pe, ok := err.(*Error); ok {
		return f.r.fail(0, "content block "+strconv.Itoa(i)+": tool input: "+pe.Msg+
			" (byte "+strconv.Itoa(pe.Offset)+" of the joined partial_json)")
	}
	p.block.input, p.json = input, nil
	return nil
}

var messageDeltaKeys = []string{"stop_reason", "stop_sequence"}

func (a *assembler) messageDelta(f fields) error {
	err := f.read(4, func(r *reader) error {
		return r.object(messageDeltaKeys, func(k int) (err error) {
			if k == 0 {
				a.msg.stopReason, err = r.optStr()
			} else {
				a.msg.stopSequence, err = r.optStr()
			}
			return err
		})
	})
	if err != nil {
		return err
	}
	return f.read(5, func(r *reader) (err error) { a.msg.usage, err = readUsage(r, a.msg.usage); return err })
}
