package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// LLM completes one request. Implementations must be safe for concurrent use.
type LLM interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// LLMFunc adapts an ordinary function to the LLM interface, like http.HandlerFunc.
type LLMFunc func(ctx context.Context, req Request) (Response, error)

// Complete calls f(ctx, req).
func (f LLMFunc) Complete(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// Role is the author of a message.
type Role string

// The roles of a chat conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation. Assistant messages may carry tool
// calls; tool messages answer one call, named by ToolCallID.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// ToolCall is a request by the model to run a tool. Arguments is a JSON
// object, but for a call of a custom tool (Custom: the OpenAI Responses
// API's custom_tool_call, whose input is free text, not JSON arguments),
// Arguments is that text as one JSON string. [ToolCall.Input] is the
// text either way; [CustomCall] makes such a call.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Custom    bool            `json:"custom,omitempty"`
}

// CustomCall returns a custom tool call whose input is text.
func CustomCall(id, name, text string) ToolCall {
	b, _ := json.Marshal(text) // a string always marshals
	return ToolCall{ID: id, Name: name, Arguments: b, Custom: true}
}

// Input is the call's input as the model wrote it: a custom call's text,
// or a function call's arguments. A custom call whose Arguments is not a
// JSON string gives its bytes as they are.
func (c ToolCall) Input() string {
	if c.Custom {
		var s string
		if err := json.Unmarshal(c.Arguments, &s); err == nil {
			return s
		}
	}
	return string(c.Arguments)
}

// Tool describes a tool offered to the model. InputSchema is a JSON Schema;
// a custom tool (Custom: the OpenAI Responses API's type "custom", called
// with free text) has none.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Custom      bool            `json:"custom,omitempty"`
}

// Call sites, the values of Tag.Site used by toolout's own components.
const (
	SiteSessionTurn     = "session.turn"
	SiteExtractMap      = "extract.map"
	SiteExtractReduce   = "extract.reduce"
	SiteExtractReadGrep = "extract.readgrep"
	SiteGatewayCompress = "gateway.compress"
	// SiteGatewayUpstream is the model behind the gateway; Turn is the
	// forward round of one client request.
	SiteGatewayUpstream = "gateway.upstream"
)

// Tag names the call site of a request and its facets. Chunk and Chunks are
// 1-based "chunk i of n" and zero when the call is not about a chunk; Turn is the
// 1-based agent turn and zero when the call is not part of a loop. Round is
// the 1-based forward of one client request by a gateway in front of the
// model (HTTP header X-Toolout-Gateway-Round: 1, then 2... after each
// expand_context round), zero when the caller does not know it: toolout
// serve sets it for a request the toolout gateway forwards; toolout's own
// components never do (in process the gateway component numbers its rounds
// with Turn).
type Tag struct {
	Site   string `json:"site"`
	Chunk  int    `json:"chunk,omitempty"`
	Chunks int    `json:"chunks,omitempty"`
	Turn   int    `json:"turn,omitempty"`
	Round  int    `json:"round,omitempty"`
}

// String renders the tag as "site chunk=i/n turn=t round=r", leaving out
// empty facets.
func (t Tag) String() string {
	var b strings.Builder
	b.WriteString(t.Site)
	if t.Chunks > 0 {
		fmt.Fprintf(&b, " chunk=%d/%d", t.Chunk, t.Chunks)
	}
	if t.Turn > 0 {
		fmt.Fprintf(&b, " turn=%d", t.Turn)
	}
	if t.Round > 0 {
		fmt.Fprintf(&b, " round=%d", t.Round)
	}
	return b.String()
}

// MaxTagBytes bounds the text [ParseTag] reads.
const MaxTagBytes = 256

// TagError is a tag text [ParseTag] refused: Offset is the byte of text
// where the problem is.
type TagError struct {
	Offset int
	Msg    string
}

func (e *TagError) Error() string { return fmt.Sprintf("core: tag: byte %d: %s", e.Offset, e.Msg) }

// ParseTag reads a tag in the form [Tag.String] writes it: the site, then
// the facets "chunk=i/n" (1 <= i <= n), "turn=t" (t >= 1) and "round=r"
// (r >= 1), separated by spaces, each facet at most once and in any order.
// The site is one or
// more ASCII letters, digits, '_', '.' or '-' (every site of toolout's
// components and of a scenario's match.tag); numbers are decimal without a
// sign or a leading zero, at most 9 digits. Leading and trailing spaces are
// ignored; text longer than MaxTagBytes is refused. So every tag with a
// valid site and valid facets survives ParseTag(t.String()), and a text
// ParseTag accepts reads the same as its tag's String. Errors are
// [*TagError] values.
func ParseTag(text string) (Tag, error) {
	if len(text) > MaxTagBytes {
		return Tag{}, &TagError{MaxTagBytes, fmt.Sprintf("longer than %d bytes", MaxTagBytes)}
	}
	var t Tag
	i := 0
	field := func() (string, int) {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		start := i
		for i < len(text) && text[i] != ' ' {
			i++
		}
		return text[start:i], start
	}
	site, at := field()
	if site == "" {
		return Tag{}, &TagError{at, "want a site, e.g. \"session.turn\""}
	}
	for j := 0; j < len(site); j++ {
		if !siteByte(site[j]) {
			return Tag{}, &TagError{at + j, fmt.Sprintf("site %q: want letters, digits, '_', '.', '-'", site)}
		}
	}
	t.Site = site
	for {
		f, at := field()
		if f == "" {
			return t, nil
		}
		name, value, ok := strings.Cut(f, "=")
		var err *TagError
		switch {
		case !ok:
			err = &TagError{at, fmt.Sprintf("%q: want chunk=i/n, turn=t or round=r", f)}
		case name == "chunk" && t.Chunks > 0, name == "turn" && t.Turn > 0, name == "round" && t.Round > 0:
			err = &TagError{at, name + " given twice"}
		case name == "chunk":
			t.Chunk, t.Chunks, err = parseChunk(value, at+len("chunk="))
		case name == "turn":
			t.Turn, err = parseCount(value, at+len("turn="), "turn")
		case name == "round":
			t.Round, err = parseCount(value, at+len("round="), "round")
		default:
			err = &TagError{at, fmt.Sprintf("unknown facet %q (want chunk, turn or round)", name)}
		}
		if err != nil {
			return Tag{}, err
		}
	}
}

func siteByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// parseChunk reads "i/n" at offset at.
func parseChunk(s string, at int) (i, n int, err *TagError) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, &TagError{at, fmt.Sprintf("chunk %q: want i/n", s)}
	}
	if i, err = parseCount(a, at, "chunk"); err != nil {
		return 0, 0, err
	}
	if n, err = parseCount(b, at+len(a)+1, "chunk total"); err != nil {
		return 0, 0, err
	}
	if i > n {
		return 0, 0, &TagError{at, fmt.Sprintf("chunk %s: want i <= n", s)}
	}
	return i, n, nil
}

// parseCount reads a positive decimal of at most 9 digits at offset at.
func parseCount(s string, at int, what string) (int, *TagError) {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return 0, &TagError{at, fmt.Sprintf("%s %q: want a number from 1 to 999999999", what, s)}
	}
	n := 0
	for j := 0; j < len(s); j++ {
		if s[j] < '0' || s[j] > '9' {
			return 0, &TagError{at + j, fmt.Sprintf("%s %q: want a number from 1 to 999999999", what, s)}
		}
		n = n*10 + int(s[j]-'0')
	}
	return n, nil
}

// Request is one completion request.
type Request struct {
	Tag             Tag       `json:"tag"`
	Messages        []Message `json:"messages"`
	Tools           []Tool    `json:"tools,omitempty"`
	MaxOutputTokens int       `json:"max_output_tokens,omitempty"`
}

// Finish reasons reported in Response.FinishReason.
const (
	FinishStop      = "stop"
	FinishToolCalls = "tool_calls"
	FinishLength    = "length"
)

// Response is the model's answer to a Request.
type Response struct {
	Text         string     `json:"text"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	Usage        Usage      `json:"usage"`
	FinishReason string     `json:"finish_reason"`
}

// Usage counts the tokens of one completion.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Errors an LLM may return (wrapped) so that callers can tell transient
// failures apart. A timeout is reported by wrapping context.DeadlineExceeded.
var (
	ErrRateLimited = errors.New("rate limited")
	ErrServer      = errors.New("server error")
)
