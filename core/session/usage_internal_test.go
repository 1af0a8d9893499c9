package session

import (
	"testing"

	"github.com/toolout/toolout/core"
)

// countingTokenizer counts one token per byte and how many bytes it was
// asked to count.
type countingTokenizer struct{ seen *int }

func (c countingTokenizer) Count(s string) int                             { *c.seen += len(s); return len(s) }
func (c countingTokenizer) Pieces(dst []core.Piece, _ string) []core.Piece { return dst }
func (c countingTokenizer) Name() string                                   { return "bytes" }

// The running count reads each message once however many tool results the
// session sees, and starts again on a conversation that shrank.
func TestUsageCountsEachMessageOnce(t *testing.T) {
	seen := 0
	u := usage{tk: countingTokenizer{&seen}}
	var msgs []core.Message
	for i := range 100 {
		msgs = append(msgs, core.Message{Role: core.RoleTool, Content: "0123456789"})
		if got := u.of(msgs); got != 10*(i+1) {
			t.Fatalf("after %d messages: %d tokens, want %d", i+1, got, 10*(i+1))
		}
	}
	if seen != 1000 {
		t.Fatalf("counted %d bytes for 100 messages of 10: want each counted once (1000)", seen)
	}
	if got := u.of(msgs[:3]); got != 30 {
		t.Fatalf("a shorter conversation: %d tokens, want 30", got)
	}
}
