package mcpresult

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/toolout/toolout/core"
)

// Tool is an agent tool (core/agent.Tool) over an MCP tool: Call returns
// the CallToolResult as the server sent it, and the model reads it
// normalized. A result with isError is the tool's error, its text the
// message. The _meta size hint of the last result is its SizeHint, which a
// session takes as the tool's own limit.
type Tool struct {
	Desc core.Tool
	Call func(ctx context.Context, args json.RawMessage) ([]byte, error)

	hint atomic.Int64
}

// Descriptor returns t.Desc.
func (t *Tool) Descriptor() core.Tool { return t.Desc }

// Run calls the tool and normalizes its result.
func (t *Tool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	raw, err := t.Call(ctx, args)
	if err != nil {
		return "", err
	}
	r, err := Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%s: %w", t.Desc.Name, err)
	}
	n := Normalize(r)
	t.hint.Store(int64(n.MaxChars))
	if n.IsError {
		return "", errors.New(n.Text)
	}
	return n.Text, nil
}

// SizeHint is the size limit the tool's last result declared in _meta
// (anthropic/maxResultSizeChars), or 0.
func (t *Tool) SizeHint() int { return int(t.hint.Load()) }
