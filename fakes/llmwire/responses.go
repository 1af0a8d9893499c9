package llmwire

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/fakes"
)

// seqData is a Responses event's data without its head: the API writes
// {"type":TYPE,"sequence_number":N first, then the event's own members
// (rest, from its first comma); N is the event's place in the stream as
// sent, set by [sequence] once the fault has cut it.
type seqData struct{ rest string }

// responsesEvents is a response as the Responses API streams it: the
// events of core/gateway/responses.EncodeStream for the answer (so the
// objects, their members and their order are that package's: created and
// in_progress with the response in progress, per output item added, its
// deltas, its done events and output_item.done, then completed with the
// JSON answer whole), with each delta event (response.output_text.delta,
// response.function_call_arguments.delta,
// response.custom_tool_call_input.delta) told once per piece of the
// scripted stream: its text's pieces for the message, each call's pieces
// (a custom call's: pieces of its input text) for its item. An empty text
// or input has no piece, and no delta event.
func responsesEvents(s fakes.Stream, id string) (events, error) {
	raw := responses.EncodeStream(s.Response, id, Model)
	var evs events
	calls := 0
	for _, block := range bytes.Split(bytes.TrimSuffix(raw, []byte("\n\n")), []byte("\n\n")) {
		name, data, ok := bytes.Cut(block, []byte("\ndata: "))
		name, hasName := bytes.CutPrefix(name, []byte("event: "))
		head := `{"type":` + string(jsonspan.String(string(name))) + `,"sequence_number":`
		if !ok || !hasName || !bytes.HasPrefix(data, []byte(head)) {
			return nil, fmt.Errorf("llmwire: responses: event %q of the encoded stream: want event: and data: {\"type\", \"sequence_number\"", clipped(block))
		}
		rest := data[len(head):]
		rest = rest[bytes.IndexAny(rest, ",}"):] // past the number
		ev := event{name: string(name), data: seqData{string(rest)}, final: string(name) == "response.completed"}
		var pieces []string
		switch ev.name {
		case "response.output_text.delta":
			pieces = s.Text
		case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
			if calls < len(s.Args) {
				pieces = s.Args[calls]
			}
			calls++
		default:
			evs = append(evs, ev)
			continue
		}
		whole := `"delta":` + string(jsonspan.String(join(pieces)))
		if !bytes.Contains(rest, []byte(whole)) {
			return nil, fmt.Errorf("llmwire: responses: %s of the encoded stream does not carry the scripted pieces %q", ev.name, pieces)
		}
		for _, p := range pieces {
			one := bytes.Replace(rest, []byte(whole), append([]byte(`"delta":`), jsonspan.String(p)...), 1)
			evs = append(evs, event{name: ev.name, data: seqData{string(one)}, chunk: true})
		}
	}
	return evs, nil
}

func join(pieces []string) string {
	var b bytes.Buffer
	for _, p := range pieces {
		b.WriteString(p)
	}
	return b.String()
}

func clipped(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// responsesError is the error event that ends a stream cut by
// error_after: the Responses API's "error" event (type, sequence_number,
// code, message, param, as the SDKs' ResponseErrorEvent reads it).
func responsesError(msg string) event {
	return event{name: "error", data: seqData{`,"code":"server_error","message":` + string(jsonspan.String(msg)) + `,"param":null}`}}
}

// sequence writes every event of a Responses stream, in the order sent,
// with its type and its sequence_number (the error event of a fault
// included).
func sequence(out events) {
	for i := range out {
		if d, ok := out[i].data.(seqData); ok {
			out[i].data = `{"type":` + string(jsonspan.String(out[i].name)) + `,"sequence_number":` + strconv.Itoa(i) + d.rest
		}
	}
}
