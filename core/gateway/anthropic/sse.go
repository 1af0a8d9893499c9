package anthropic

import (
	"errors"

	"github.com/toolout/toolout/core/gateway/sse"
)

// scanEvents calls each with every event of the stream raw (core/gateway/sse
// reads it); an *Error from each gets its offset in the event's data
// mapped to raw.
func scanEvents(raw []byte, each func(e *sse.Event) error) error {
	return sse.Scan(raw, eventNames, func(e *sse.Event) error {
		err := each(e)
		var pe *Error
		if errors.As(err, &pe) {
			pe.Offset = e.Offset(pe.Offset)
		}
		return err
	})
}

// eventNames are the names of the API's events, kept so that reading one
// allocates nothing.
var eventNames = []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
	"message_delta", "message_stop", "ping", "error"}
