package responses

import (
	"strconv"
	"strings"

	"github.com/toolout/toolout/core"
)

// textPart is an output_text content part.
type textPart struct {
	Type        string   `json:"type"`
	Annotations []string `json:"annotations"`
	Logprobs    []string `json:"logprobs"`
	Text        string   `json:"text"`
}

// outItem is an output item as EncodeResponse writes it.
type outItem struct {
	ID        string     `json:"id"`
	Type      string     `json:"type"`
	Status    string     `json:"status"`
	Role      string     `json:"role,omitempty"`
	Content   []textPart `json:"content,omitempty"`
	CallID    string     `json:"call_id,omitempty"`
	Name      string     `json:"name,omitempty"`
	Arguments *string    `json:"arguments,omitempty"`
	Input     *string    `json:"input,omitempty"`
}

// itemID returns the id EncodeResponse gives an output item of the
// response with the given id: prefix ("msg_" for the message, "fc_" for a
// function call, "ctc_" for a custom tool call), the response's id less
// its "resp_" prefix, and for a call (i >= 0) "_" and its index.
func itemID(prefix, id string, i int) string {
	s := prefix + strings.TrimPrefix(id, "resp_")
	if i >= 0 {
		s += "_" + strconv.Itoa(i)
	}
	return s
}

// EncodeResponse renders a core.Response as a Responses API response
// object: a message item with one output_text part when the response has
// text or no tool call, then one function_call or custom_tool_call item
// per tool call; status "completed", or "incomplete" with
// incomplete_details.reason "max_output_tokens" when FinishReason is
// "length"; created_at 0 (the time is the caller's to set, and fixed
// bytes are what a scripted server needs); usage with total_tokens.
func EncodeResponse(resp core.Response, id, model string) []byte {
	var items []outItem
	if resp.Text != "" || len(resp.ToolCalls) == 0 {
		items = append(items, outItem{ID: itemID("msg_", id, -1), Type: TypeMessage, Status: "completed", Role: "assistant",
			Content: []textPart{{Type: "output_text", Annotations: []string{}, Logprobs: []string{}, Text: resp.Text}}})
	}
	for i, tc := range resp.ToolCalls {
		if tc.Custom {
			in := customInput(tc.Arguments)
			items = append(items, outItem{ID: itemID("ctc_", id, i), Type: TypeCustomToolCall, Status: "completed", CallID: tc.ID, Name: tc.Name, Input: &in})
			continue
		}
		args := string(tc.Arguments)
		items = append(items, outItem{ID: itemID("fc_", id, i), Type: TypeFunctionCall, Status: "completed", CallID: tc.ID, Name: tc.Name, Arguments: &args})
	}
	status, incomplete := "completed", any(nil)
	if resp.FinishReason == core.FinishLength {
		status, incomplete = "incomplete", map[string]string{"reason": "max_output_tokens"}
	}
	type usage struct {
		InputTokens         int            `json:"input_tokens"`
		InputTokensDetails  map[string]int `json:"input_tokens_details"`
		OutputTokens        int            `json:"output_tokens"`
		OutputTokensDetails map[string]int `json:"output_tokens_details"`
		TotalTokens         int            `json:"total_tokens"`
	}
	out := struct {
		ID                string    `json:"id"`
		Object            string    `json:"object"`
		CreatedAt         int       `json:"created_at"`
		Status            string    `json:"status"`
		Error             any       `json:"error"`
		IncompleteDetails any       `json:"incomplete_details"`
		Model             string    `json:"model"`
		Output            []outItem `json:"output"`
		ParallelToolCalls bool      `json:"parallel_tool_calls"`
		ToolChoice        string    `json:"tool_choice"`
		Tools             []string  `json:"tools"`
		Usage             usage     `json:"usage"`
	}{ID: id, Object: "response", Status: status, IncompleteDetails: incomplete, Model: model, Output: items,
		ParallelToolCalls: true, ToolChoice: "auto", Tools: []string{},
		Usage: usage{InputTokens: resp.Usage.InputTokens, InputTokensDetails: map[string]int{"cached_tokens": 0},
			OutputTokens: resp.Usage.OutputTokens, OutputTokensDetails: map[string]int{"reasoning_tokens": 0},
			TotalTokens: resp.Usage.InputTokens + resp.Usage.OutputTokens}}
	if out.Output == nil {
		out.Output = []outItem{}
	}
	return marshal(out)
}

var responseKeys = []string{"object", "status", "error", "incomplete_details", "output", "usage"}

// DecodeResponse maps a Responses API response object to a core.Response:
// the output_text parts of its message items (the parts of one message
// concatenated, messages joined by "\n"), one tool call per function_call
// and custom_tool_call item (Custom set, the input as a JSON string) in
// order, usage's input_tokens and output_tokens, and FinishReason "length"
// for an incomplete response, else "tool_calls" when it has a tool call,
// else "stop". Reasoning and other items are left out. A response whose
// status is "failed" is an error with its error's message. Errors are
// [*Error] values with the position in body.
func DecodeResponse(body []byte) (core.Response, error) {
	resp, err := decodeResponse(body)
	if err != nil {
		return core.Response{}, locate(err, "response", body)
	}
	return resp, nil
}

func decodeResponse(body []byte) (core.Response, error) {
	n, err := parse(body, "response")
	if err != nil {
		return core.Response{}, err
	}
	root := value{b: body, n: n}
	if err := root.object(responseKeys...); err != nil {
		return core.Response{}, err
	}
	status, err := root.key("status").optStr()
	if err != nil {
		return core.Response{}, err
	}
	if status == "failed" {
		msg := root.key("error").key("message")
		text, _ := msg.optStr()
		return core.Response{}, root.key("status").fail("the response failed: " + oneLine(text))
	}
	var resp core.Response
	ov := root.key("output")
	if ov.n == nil || ov.n.Kind != '[' {
		return resp, ov.want("an array of output items")
	}
	var texts []string
	for _, it := range ov.items() {
		if err := readOutput(it, &resp, &texts); err != nil {
			return resp, err
		}
	}
	resp.Text = strings.Join(texts, "\n")
	u := root.key("usage")
	if !u.missing() {
		if err := u.object("input_tokens", "output_tokens"); err != nil {
			return resp, err
		}
		if resp.Usage.InputTokens, err = u.key("input_tokens").optInt(); err != nil {
			return resp, err
		}
		if resp.Usage.OutputTokens, err = u.key("output_tokens").optInt(); err != nil {
			return resp, err
		}
	}
	switch {
	case status == "incomplete":
		resp.FinishReason = core.FinishLength
	case len(resp.ToolCalls) > 0:
		resp.FinishReason = core.FinishToolCalls
	default:
		resp.FinishReason = core.FinishStop
	}
	return resp, nil
}

// readOutput reads one output item into resp.
func readOutput(v value, resp *core.Response, texts *[]string) error {
	if err := v.object("type"); err != nil {
		return err
	}
	typ, err := v.key("type").str()
	if err != nil {
		return err
	}
	switch typ {
	case TypeMessage:
		var c conversation
		if err := c.message(v); err != nil {
			return err
		}
		// The parts of one message are one text: join them as sent.
		text, err := outputParts(v.key("content"))
		if err != nil {
			return err
		}
		*texts = append(*texts, text)
	case TypeFunctionCall, TypeCustomToolCall:
		var c conversation
		if err := c.call(v, typ); err != nil {
			return err
		}
		resp.ToolCalls = append(resp.ToolCalls, c.msgs[0].ToolCalls...)
	}
	return nil
}

// outputParts returns the output_text texts of a message's content,
// concatenated.
func outputParts(v value) (string, error) {
	if v.n.Kind == '"' {
		return v.n.Str, nil
	}
	var b strings.Builder
	for _, p := range v.items() {
		if p.key("type").n.Text() == "output_text" {
			b.WriteString(p.key("text").n.Text())
		}
	}
	return b.String(), nil
}

// oneLine returns s on one line, at most 200 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "..."
	}
	return s
}
