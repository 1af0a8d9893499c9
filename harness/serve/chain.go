package serve

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/jsonspan"
)

// Bounds on the responses a scenario keeps for previous_response_id.
const (
	// MaxKeptResponses is how many answered responses a scenario keeps.
	MaxKeptResponses = 256
	// MaxKeptResponseBytes bounds the text of the conversations kept.
	MaxKeptResponseBytes = 64 << 20
)

// chain keeps, for one scenario, the conversation of each response it
// answered on the Responses wire with store not false: the request's
// messages without its system text (a continuation brings its own
// instructions, as the API does not carry them over) and the answer as
// one assistant message. The oldest go first past MaxKeptResponses or
// MaxKeptResponseBytes.
type chain struct {
	mu    sync.Mutex
	byID  map[string][]core.Message
	order []string
	size  map[string]int
	bytes int
}

// keep records the conversation that response id ended.
func (c *chain) keep(id string, req core.Request, resp core.Response) {
	var msgs []core.Message
	n := 0
	for _, m := range req.Messages {
		if m.Role != core.RoleSystem {
			msgs = append(msgs, m)
			n += messageBytes(m)
		}
	}
	answer := core.Message{Role: core.RoleAssistant, Content: resp.Text, ToolCalls: resp.ToolCalls}
	msgs = append(msgs, answer)
	n += messageBytes(answer)
	if n > MaxKeptResponseBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID, c.size = map[string][]core.Message{}, map[string]int{}
	}
	for len(c.order) > 0 && (len(c.order) >= MaxKeptResponses || c.bytes+n > MaxKeptResponseBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= c.size[old]
		delete(c.byID, old)
		delete(c.size, old)
	}
	c.byID[id], c.size[id] = msgs, n
	c.order = append(c.order, id)
	c.bytes += n
}

// continued returns req with the conversation of response prev before its
// own messages (after its system text), or an error when the scenario
// keeps no response by that id.
func (c *chain) continued(prev string, req core.Request) (core.Request, error) {
	c.mu.Lock()
	hist, ok := c.byID[prev]
	c.mu.Unlock()
	if !ok {
		return req, fmt.Errorf("previous_response_id %s: no response of this scenario has that id (serve keeps the last %d it answered with store not false, at most %d MiB of them; Codex sends its whole input with store: false instead)",
			clip(prev), MaxKeptResponses, MaxKeptResponseBytes>>20)
	}
	var msgs []core.Message
	for _, m := range req.Messages {
		if m.Role == core.RoleSystem {
			msgs = append(msgs, m)
		}
	}
	msgs = append(msgs, hist...)
	for _, m := range req.Messages {
		if m.Role != core.RoleSystem {
			msgs = append(msgs, m)
		}
	}
	req.Messages = msgs
	return req, nil
}

func messageBytes(m core.Message) int {
	n := len(m.Content)
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	return n + len(m.ToolCallID) + len(m.Name)
}

// responsesState is what serve reads of a Responses request besides the
// core.Request (core/gateway/responses decodes the rest): the response
// it continues and whether the answer may be kept.
type responsesState struct {
	Previous *string `json:"previous_response_id"`
	Store    *bool   `json:"store"`
}

func readResponsesState(body []byte) (responsesState, error) {
	var st responsesState
	if err := json.Unmarshal(body, &st); err != nil {
		return st, fmt.Errorf("responses: request: %w", jsonspan.TypeError(body, err))
	}
	return st, nil
}
