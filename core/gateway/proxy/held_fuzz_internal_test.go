package proxy

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzContinuation holds the splice of a final answer into a client's
// stream (continuation, shiftIndex, continueResponses, readEvent) to its
// properties on any bytes: no panic; nothing is added but index digits; an
// event is dropped only when it is a message_start, a ping or a Responses
// API opening event (response.created, in_progress, queued); with nothing
// sent before, an event that is kept is kept as it was, but for a
// Responses event's sequence_number, renumbered from 0.
func FuzzContinuation(f *testing.F) {
	f.Add([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"), 2)
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"), 3)
	f.Add([]byte("data: {\"type\":\"content_block_delta\",\"index\":9223372036854775807}\n\n"), 1)
	f.Add([]byte("data: {\"type\":\"ping\"}\r\n\r\ndata: {\"index\":-1,\"type\":\"x\"}"), 5)
	f.Add([]byte("\n\n\n"), 0)
	f.Add([]byte("event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{}}\n\n"+
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"message\"}}\n\n"+
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":2,\"response\":{\"output\":[{\"type\":\"message\"}]}}\n\n"), 0)
	f.Fuzz(func(t *testing.T, restream []byte, blocks int) {
		blocks = max(0, min(blocks, 1<<20))
		out := continuation(restream, shown{blocks: blocks})
		if len(out) > len(restream)+countEvents(restream)*20 {
			t.Fatalf("continuation grew %d bytes into %d", len(restream), len(out))
		}
		if blocks != 0 {
			return
		}
		for _, ev := range strings.SplitAfter(string(out), "\n\n") {
			if ev != "" && !bytes.Contains(restream, []byte(ev)) && !strings.HasPrefix(eventType([]byte(ev)), "response.") {
				t.Fatalf("event %q is not one of the input's", ev)
			}
			if k := eventType([]byte(ev)); k == "message_start" || k == "ping" || responsesStart[k] {
				t.Fatalf("a %s event was kept", k)
			}
		}
	})
}

func countEvents(b []byte) int { return bytes.Count(b, []byte("\n")) + 1 }
