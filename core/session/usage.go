package session

import "github.com/toolout/toolout/core"

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
