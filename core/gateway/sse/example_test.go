package sse_test

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway/sse"
)

func ExampleScan() {
	stream := "event: message_start\ndata: {\"type\":\"message_start\"}\n\n: keep-alive\n\ndata: line one\ndata: line two\n\n"
	_ = sse.Scan([]byte(stream), []string{"message_start"}, func(e *sse.Event) error {
		fmt.Printf("%q %q, its data at byte %d of the stream\n", e.Name, e.Data, e.Offset(0))
		return nil
	})
	// Output:
	// "message_start" "{\"type\":\"message_start\"}", its data at byte 27 of the stream
	// "" "line one\nline two", its data at byte 73 of the stream
}
