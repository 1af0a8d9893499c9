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

// ToolCall is a request by the model to run a tool. Arguments is a JSON object.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Tool describes a tool offered to the model. InputSchema is a JSON Schema.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
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
// 1-based agent turn and zero when the call is not part of a loop.
type Tag struct {
	Site   string `json:"site"`
	Chunk  int    `json:"chunk,omitempty"`
	Chunks int    `json:"chunks,omitempty"`
	Turn   int    `json:"turn,omitempty"`
}

// String renders the tag as "site chunk=i/n turn=t", leaving out empty facets.
func (t Tag) String() string {
	var b strings.Builder
	b.WriteString(t.Site)
	if t.Chunks > 0 {
		fmt.Fprintf(&b, " chunk=%d/%d", t.Chunk, t.Chunks)
	}
	if t.Turn > 0 {
		fmt.Fprintf(&b, " turn=%d", t.Turn)
	}
	return b.String()
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
