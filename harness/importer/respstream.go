package importer

import (
	"errors"

	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/core/jsonspan"
)

// respStream reads a Responses log's response given as the text of its
// event stream, the string at resp: assembled by the gateway's own
// assembler (responses.Assemble: the response of the terminal event, its
// output rebuilt from the output_item.done events when empty; a stream
// cut short or an error event is refused), then read as a response
// object. An error in the stream is named at its place in the log,
// through the string's escapes; an error in the assembled response at
// the string, saying so.
func (t *parsedTrace) respStream(resp *jsonspan.Node) (traceMessage, string, error) {
	s := t.streamAt(resp.Start)
	body, err := responses.Assemble(s.text)
	if err != nil {
		off := len(s.text)
		var re *responses.Error
		if errors.As(err, &re) {
			off = re.Offset
		}
		return traceMessage{}, "", t.errorf(s.pos(off), "response: the event stream: %v", err)
	}
	sub := t.assembled(body, resp.Start)
	if at, msg := syntaxOffset(body); at >= 0 {
		return traceMessage{}, "", sub.errorf(at, "%s", msg)
	}
	reply, id, err := sub.respOutput(tree(body, nil), "response")
	return detach(reply, resp.Start), id, err
}
