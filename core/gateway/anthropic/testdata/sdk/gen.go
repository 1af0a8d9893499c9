// Command gen writes what the official-SDK check (check.mjs beside it)
// feeds to the Anthropic TypeScript SDK: for each JSON fixture, its
// StreamOf stream (streamof_NAME.sse) and the message AssembleStream makes
// of it (.json); each recorded stream (fixture_NAME.sse) with that same
// message; a WriteStream stream and its EncodeResponse body. It is not
// built by go build ./... (testdata). Run from the module root:
//
//	go run ./core/gateway/anthropic/testdata/sdk/gen.go core/gateway/anthropic/testdata OUT
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen TESTDATA OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	files := map[string][]byte{}
	for _, name := range []string{"text", "tool_use", "parallel_tools", "response_tool_use", "thinking_tool_use", "redacted_thinking"} {
		msg, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			return err
		}
		stream, err := anthropic.StreamOf(msg)
		if err != nil {
			return err
		}
		want, err := anthropic.AssembleStream(stream)
		if err != nil {
			return err
		}
		files["streamof_"+name+".sse"], files["streamof_"+name+".json"] = stream, want
		if raw, err := os.ReadFile(filepath.Join(dir, name+".sse")); err == nil {
			files["fixture_"+name+".sse"], files["fixture_"+name+".json"] = raw, want
		}
	}
	resp := core.Response{Text: "db-9 failed <at> line 333 & more.", ToolCalls: []core.ToolCall{
		{ID: "toolu_1", Name: "Grep", Arguments: json.RawMessage(`{"pattern":"café ✗","n":[1,2]}`)},
		{ID: "toolu_2", Name: "Now", Arguments: json.RawMessage(`{}`)}}, FinishReason: core.FinishToolCalls,
		Usage: core.Usage{InputTokens: 100, OutputTokens: 20}}
	var w bytes.Buffer
	if err := anthropic.WriteStream(&w, resp, "msg_w", "scripted"); err != nil {
		return err
	}
	body := anthropic.EncodeResponse(resp, "msg_w", "scripted")
	files["writestream.sse"], files["writestream.json"], files["body.json"] = w.Bytes(), body, body
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
