package session

import (
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
)

// Policy decides which tool outputs the session stores instead of showing
// (spec section 2a): the session's rule, applied before anything reaches the
// store.
type Policy struct {
	// MaxBytes is the byte cap: an output of more bytes is stored. Zero or
	// less disables the byte rule.
	MaxBytes int
}

// Decision says whether to store an output, and why.
type Decision struct {
	Store  bool
	Reason string // "bytes: …" or "tokens: …" when stored
}

// Decide applies the policy to an output of tool measured by st, with
// remaining tokens of context budget left (negative: no budget rule). The
// results of tool_output itself are never stored.
func (p Policy) Decide(tool string, st store.Stats, remaining int) Decision {
	switch {
	case tool == extract.ToolName:
		return Decision{}
	case p.MaxBytes > 0 && st.Bytes > p.MaxBytes:
		return Decision{Store: true, Reason: fmt.Sprintf("bytes: %d > cap %d", st.Bytes, p.MaxBytes)}
	case remaining >= 0 && st.Tokens > remaining:
		return Decision{Store: true, Reason: fmt.Sprintf("tokens: %d > remaining budget %d", st.Tokens, remaining)}
	}
	return Decision{}
}

// usage keeps the running token count of a conversation that only grows:
// each message is counted once, when it is first seen, instead of the whole
// conversation on every tool result (quadratic in a long session).
type usage struct {
	tk      core.Tokenizer
	counted int // messages counted so far
	tokens  int
}

// of returns the tokens of msgs, counting only the messages added since the
// last call. A conversation shorter than what was counted (not one the agent
// loop makes) is counted again from the start.
func (u *usage) of(msgs []core.Message) int {
	if len(msgs) < u.counted {
		u.counted, u.tokens = 0, 0
	}
	for _, m := range msgs[u.counted:] {
		u.tokens += u.tk.Count(m.Content)
	}
	u.counted = len(msgs)
	return u.tokens
}
