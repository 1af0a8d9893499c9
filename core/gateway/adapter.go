package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ExpandToolName is the phantom tool the gateway offers and answers itself.
const ExpandToolName = "expand_context"

// ExpandToolDescription tells the model what the phantom tool does.
const ExpandToolDescription = "Some tool results were compressed and start with <<<SHADOW:shadow_...>>>. " +
	"Call expand_context with that shadow_id to get the full original output when the compressed text lacks what you need."

const expandParams = `{"type":"object","properties":{"shadow_id":{"type":"string","description":"The id after <<<SHADOW: in a compressed tool result, e.g. shadow_0123abcd..."}},"required":["shadow_id"],"additionalProperties":false}`

// ExpandMissing is the fixed answer for a shadow id that is unknown or whose
// original expired: an explanation the model can act on, not an error.
func ExpandMissing(id string) string {
	return fmt.Sprintf("The original content for %s is no longer available (unknown id, or it expired). "+
		"Answer from the compressed text you have, or call the original tool again.", id)
}

// ExpandNotAvailable is the fixed answer for a shadow id the gateway did
// not issue into this conversation. It does not depend on the store, so it
// tells nothing about other conversations.
func ExpandNotAvailable(id string) string {
	return fmt.Sprintf("The content for %s is not available in this conversation. "+
		"Only the shadow ids of compressed tool results in this conversation can be expanded.", id)
}

// Answers of an expand_context call (Expansion.Answer, Observer.Expansion).
const (
	AnswerOriginal     = "original"
	AnswerMissing      = "missing"
	AnswerRepeated     = "repeated"
	AnswerNotAvailable = "not_available"
)

// ExpandRepeated answers a shadow id already expanded in this request.
func ExpandRepeated(id string) string {
	return fmt.Sprintf("The original content for %s was already expanded above in this conversation.", id)
}

// PhantomCall is one expand_context call in a model response.
type PhantomCall struct {
	ID       string
	ShadowID string
	raw      []byte // the call as the response wrote it
}

// Adapter reads and edits one provider's request and response bodies. Edits
// are splices: bytes outside the edited values stay as they were.
type Adapter interface {
	// Name is the provider: "openai" or "anthropic".
	Name() string
	// ToolOutputs lists the request's tool results, with the called tool's
	// name where the request shows it.
	ToolOutputs(body []byte) ([]ToolOutput, error)
	// Apply replaces the content of each compressed output with its text.
	Apply(body []byte, results []Result) ([]byte, error)
	// UserQuery returns the text of the last user message.
	UserQuery(body []byte) string
	// InjectExpandTool adds the expand_context tool to the request.
	InjectExpandTool(body []byte) ([]byte, error)
	// PhantomCalls lists the expand_context calls of a response.
	PhantomCalls(resp []byte) ([]PhantomCall, error)
	// AppendExpansions appends the response's phantom calls and their
	// answers to the request's messages.
	AppendExpansions(body []byte, calls []PhantomCall, answers []string) ([]byte, error)
	// StripPhantom removes phantom calls from a response.
	StripPhantom(resp []byte) ([]byte, error)
}

// AdapterFor returns the adapter of a provider.
func AdapterFor(provider string) (Adapter, error) {
	switch provider {
	case "openai", "":
		return OpenAI{}, nil
	case "anthropic", "bedrock":
		return Anthropic{}, nil
	}
	return nil, fmt.Errorf("gateway: provider %q: want openai or anthropic", provider)
}

func parseBody(body []byte, what string) (*jnode, error) {
	root, err := parseSpans(body)
	if err != nil {
		return nil, fmt.Errorf("gateway: %s: %w", what, err)
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("gateway: %s: want a JSON object", what)
	}
	return root, nil
}

// textOf returns a message content's text: a string, or the text of its
// text parts joined by newlines.
func textOf(n *jnode) string {
	if n == nil {
		return ""
	}
	if n.kind == '"' {
		return n.str
	}
	var parts []string
	for _, p := range n.items() {
		if t := p.get("type").text(); t == "text" || t == "input_text" {
			parts = append(parts, p.get("text").text())
		}
	}
	return strings.Join(parts, "\n")
}

// injectTool appends a tool to the request's "tools" list, creating it when
// absent.
func injectTool(body []byte, what, tool string) ([]byte, error) {
	root, err := parseBody(body, what)
	if err != nil {
		return nil, err
	}
	if tools := root.get("tools"); tools != nil && tools.kind == '[' {
		return splice(body, []edit{appendToArray(tools, []byte(tool))}), nil
	}
	return splice(body, []edit{addKey(root, "tools", []byte("["+tool+"]"))}), nil
}

// applyEdits replaces the content nodes of compressed outputs.
func applyEdits(body []byte, contents []*jnode, results []Result) ([]byte, error) {
	var edits []edit
	for _, r := range results {
		if r.Action != ActionCompressed {
			continue
		}
		if r.Index < 0 || r.Index >= len(contents) {
			return nil, fmt.Errorf("gateway: apply: no tool output %d", r.Index)
		}
		c := contents[r.Index]
		edits = append(edits, edit{start: c.start, end: c.end, text: jsonString(r.Text)})
	}
	return splice(body, edits), nil
}

func shadowArg(args string) string {
	var a struct {
		ShadowID string `json:"shadow_id"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return ""
	}
	return a.ShadowID
}

// OpenAI is the chat-completions adapter.
type OpenAI struct{}

// Name returns "openai".
func (OpenAI) Name() string { return "openai" }

func (OpenAI) toolMessages(root *jnode) (outs []ToolOutput, contents []*jnode) {
	names := map[string]string{}
	for _, m := range root.get("messages").items() {
		for _, tc := range m.get("tool_calls").items() {
			names[tc.get("id").text()] = tc.get("function").get("name").text()
		}
		if m.get("role").text() != "tool" {
			continue
		}
		c := m.get("content")
		if c == nil {
			continue
		}
		id := m.get("tool_call_id").text()
		tool := names[id]
		if tool == "" {
			tool = m.get("name").text()
		}
		outs = append(outs, ToolOutput{Index: len(outs), CallID: id, Tool: tool, Content: textOf(c), Provider: "openai"})
		contents = append(contents, c)
	}
	return outs, contents
}

// ToolOutputs lists the role "tool" messages.
func (a OpenAI) ToolOutputs(body []byte) ([]ToolOutput, error) {
	root, err := parseBody(body, "openai request")
	if err != nil {
		return nil, err
	}
	outs, _ := a.toolMessages(root)
	return outs, nil
}

// Apply replaces compressed tool message contents.
func (a OpenAI) Apply(body []byte, results []Result) ([]byte, error) {
	root, err := parseBody(body, "openai request")
	if err != nil {
		return nil, err
	}
	_, contents := a.toolMessages(root)
	return applyEdits(body, contents, results)
}

// UserQuery returns the last user message's text.
func (OpenAI) UserQuery(body []byte) string {
	root, err := parseSpans(body)
	if err != nil {
		return ""
	}
	q := ""
	for _, m := range root.get("messages").items() {
		if m.get("role").text() == "user" {
			q = textOf(m.get("content"))
		}
	}
	return q
}

// InjectExpandTool adds expand_context to "tools".
func (OpenAI) InjectExpandTool(body []byte) ([]byte, error) {
	return injectTool(body, "openai request", `{"type":"function","function":{"name":"expand_context","description":`+
		string(jsonString(ExpandToolDescription))+`,"parameters":`+expandParams+`}}`)
}

func (OpenAI) message(resp []byte) (*jnode, *jnode, error) {
	root, err := parseBody(resp, "openai response")
	if err != nil {
		return nil, nil, err
	}
	choices := root.get("choices").items()
	if len(choices) == 0 {
		return root, nil, nil
	}
	return root, choices[0], nil
}

// PhantomCalls lists expand_context calls in choices[0].message.tool_calls.
func (a OpenAI) PhantomCalls(resp []byte) ([]PhantomCall, error) {
	_, choice, err := a.message(resp)
	if err != nil || choice == nil {
		return nil, err
	}
	var calls []PhantomCall
	for _, tc := range choice.get("message").get("tool_calls").items() {
		if tc.get("function").get("name").text() == ExpandToolName {
			calls = append(calls, PhantomCall{ID: tc.get("id").text(), ShadowID: shadowArg(tc.get("function").get("arguments").text()),
				raw: resp[tc.start:tc.end]})
		}
	}
	return calls, nil
}

// AppendExpansions appends an assistant message with the phantom calls and
// one tool message per call.
func (OpenAI) AppendExpansions(body []byte, calls []PhantomCall, answers []string) ([]byte, error) {
	root, err := parseBody(body, "openai request")
	if err != nil {
		return nil, err
	}
	msgs := root.get("messages")
	if msgs == nil || msgs.kind != '[' {
		return nil, fmt.Errorf("gateway: openai request: no messages array")
	}
	raws := make([]string, len(calls))
	for i, c := range calls {
		raws[i] = string(c.raw)
	}
	add := [][]byte{[]byte(`{"role":"assistant","content":null,"tool_calls":[` + strings.Join(raws, ",") + `]}`)}
	for i, c := range calls {
		add = append(add, []byte(`{"role":"tool","tool_call_id":`+string(jsonString(c.ID))+`,"content":`+string(jsonString(answers[i]))+`}`))
	}
	return splice(body, []edit{appendToArray(msgs, add...)}), nil
}

// StripPhantom removes expand_context calls from choices[0]; when none is
// left, tool_calls goes and finish_reason becomes "stop".
func (a OpenAI) StripPhantom(resp []byte) ([]byte, error) {
	_, choice, err := a.message(resp)
	if err != nil || choice == nil {
		return resp, err
	}
	msg := choice.get("message")
	tcs := msg.get("tool_calls")
	var keep []string
	phantom := false
	for _, tc := range tcs.items() {
		if tc.get("function").get("name").text() == ExpandToolName {
			phantom = true
			continue
		}
		keep = append(keep, string(resp[tc.start:tc.end]))
	}
	if !phantom {
		return resp, nil
	}
	var edits []edit
	if len(keep) > 0 {
		edits = append(edits, edit{start: tcs.start, end: tcs.end, text: []byte("[" + strings.Join(keep, ",") + "]")})
	} else {
		if e, ok := removeKey(msg, "tool_calls"); ok {
			edits = append(edits, e)
		}
		if fr := choice.get("finish_reason"); fr != nil && fr.text() == "tool_calls" {
			edits = append(edits, edit{start: fr.start, end: fr.end, text: []byte(`"stop"`)})
		}
	}
	return splice(resp, edits), nil
}

// Anthropic is the messages-API adapter.
type Anthropic struct{}

// Name returns "anthropic".
func (Anthropic) Name() string { return "anthropic" }

func (Anthropic) toolResults(root *jnode) (outs []ToolOutput, contents []*jnode) {
	names := map[string]string{}
	for _, m := range root.get("messages").items() {
		for _, b := range m.get("content").items() {
			switch b.get("type").text() {
			case "tool_use":
				names[b.get("id").text()] = b.get("name").text()
			case "tool_result":
				c := b.get("content")
				if c == nil {
					continue
				}
				id := b.get("tool_use_id").text()
				outs = append(outs, ToolOutput{Index: len(outs), CallID: id, Tool: names[id], Content: textOf(c), Provider: "anthropic",
					IsError: b.get("is_error") != nil && b.get("is_error").kind == 't'})
				contents = append(contents, c)
			}
		}
	}
	return outs, contents
}

// ToolOutputs lists tool_result blocks.
func (a Anthropic) ToolOutputs(body []byte) ([]ToolOutput, error) {
	root, err := parseBody(body, "anthropic request")
	if err != nil {
		return nil, err
	}
	outs, _ := a.toolResults(root)
	return outs, nil
}

// Apply replaces compressed tool_result contents.
func (a Anthropic) Apply(body []byte, results []Result) ([]byte, error) {
	root, err := parseBody(body, "anthropic request")
	if err != nil {
		return nil, err
	}
	_, contents := a.toolResults(root)
	return applyEdits(body, contents, results)
}

// UserQuery returns the text of the last user message that has text.
func (Anthropic) UserQuery(body []byte) string {
	root, err := parseSpans(body)
	if err != nil {
		return ""
	}
	q := ""
	for _, m := range root.get("messages").items() {
		if m.get("role").text() == "user" {
			if t := textOf(m.get("content")); t != "" {
				q = t
			}
		}
	}
	return q
}

// InjectExpandTool adds expand_context to "tools".
func (Anthropic) InjectExpandTool(body []byte) ([]byte, error) {
	return injectTool(body, "anthropic request", `{"name":"expand_context","description":`+
		string(jsonString(ExpandToolDescription))+`,"input_schema":`+expandParams+`}`)
}

// PhantomCalls lists expand_context tool_use blocks.
func (Anthropic) PhantomCalls(resp []byte) ([]PhantomCall, error) {
	root, err := parseBody(resp, "anthropic response")
	if err != nil {
		return nil, err
	}
	var calls []PhantomCall
	for _, b := range root.get("content").items() {
		if b.get("type").text() == "tool_use" && b.get("name").text() == ExpandToolName {
			calls = append(calls, PhantomCall{ID: b.get("id").text(), ShadowID: b.get("input").get("shadow_id").text(), raw: resp[b.start:b.end]})
		}
	}
	return calls, nil
}

// AppendExpansions appends an assistant message with the phantom tool_use
// blocks and a user message with their tool_result blocks.
func (Anthropic) AppendExpansions(body []byte, calls []PhantomCall, answers []string) ([]byte, error) {
	root, err := parseBody(body, "anthropic request")
	if err != nil {
		return nil, err
	}
	msgs := root.get("messages")
	if msgs == nil || msgs.kind != '[' {
		return nil, fmt.Errorf("gateway: anthropic request: no messages array")
	}
	uses := make([]string, len(calls))
	results := make([]string, len(calls))
	for i, c := range calls {
		uses[i] = string(c.raw)
		results[i] = `{"type":"tool_result","tool_use_id":` + string(jsonString(c.ID)) + `,"content":` + string(jsonString(answers[i])) + `}`
	}
	return splice(body, []edit{appendToArray(msgs,
		[]byte(`{"role":"assistant","content":[`+strings.Join(uses, ",")+`]}`),
		[]byte(`{"role":"user","content":[`+strings.Join(results, ",")+`]}`))}), nil
}

// StripPhantom removes expand_context blocks; when no tool_use is left,
// stop_reason "tool_use" becomes "end_turn".
func (Anthropic) StripPhantom(resp []byte) ([]byte, error) {
	root, err := parseBody(resp, "anthropic response")
	if err != nil {
		return nil, err
	}
	content := root.get("content")
	var keep []string
	phantom, tools := false, false
	for _, b := range content.items() {
		if b.get("type").text() == "tool_use" && b.get("name").text() == ExpandToolName {
			phantom = true
			continue
		}
		tools = tools || b.get("type").text() == "tool_use"
		keep = append(keep, string(resp[b.start:b.end]))
	}
	if !phantom {
		return resp, nil
	}
	edits := []edit{{start: content.start, end: content.end, text: []byte("[" + strings.Join(keep, ",") + "]")}}
	if sr := root.get("stop_reason"); !tools && sr != nil && sr.text() == "tool_use" {
		edits = append(edits, edit{start: sr.start, end: sr.end, text: []byte(`"end_turn"`)})
	}
	return splice(resp, edits), nil
}
