package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// FuzzAssembleStream: no input panics; an assembled stream is a valid
// chat completion whose Restream assembles back to the same completion;
// a stream without a finish_reason or [DONE] (cut) is always an error.
func FuzzAssembleStream(f *testing.F) {
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The failing host is\"}}]}\n\n")) // cut
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"x\",\"function\":{\"name\":\"expand_\",\"arguments\":\"{\\\"sh\"}}]}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"context\",\"arguments\":\"adow_id\\\":\\\"s\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n"))
	f.Add([]byte("data: [DONE]\n\n"))
	// A call's name and arguments in many 1-byte pieces (joined in linear
	// memory: TestAssembleJoinsPiecesInLinearMemory).
	f.Add([]byte(strings.Repeat("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"a\",\"arguments\":\"{\"}}]}}]}\n\n"+
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"b\",\"arguments\":\"}\"}}]}}]}\n\n", 32) +
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("data: {not json}\n\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := assembleStream(raw)
		// encoding/json matches keys without case, so finish_reAson ends a
		// stream too.
		if !bytes.Contains(raw, []byte("[DONE]")) && !bytes.Contains(bytes.ToLower(raw), []byte("finish_reason")) && err == nil {
			t.Fatalf("a stream with no end assembled: %q", raw)
		}
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("assembled invalid JSON %q", out)
		}
		again, err := assembleStream(chunkOf(out))
		if err != nil {
			t.Fatalf("the re-stream of %q does not assemble: %v", out, err)
		}
		want, _ := DecodeResponse(out)
		got, _ := DecodeResponse(again)
		if want.Text != got.Text || len(want.ToolCalls) != len(got.ToolCalls) || want.FinishReason != got.FinishReason {
			t.Fatalf("re-stream changed the completion:\n%s\n%s", out, again)
		}
	})
}

// TestAssembleJoinsNamePieces: a tool name streamed in pieces assembles
// whole, so a phantom call split as "expand_" + "context" is still found;
// a name repeated whole in every chunk is kept once.
func TestAssembleJoinsNamePieces(t *testing.T) {
	chunk := func(name, args, finish string) string {
		fr := "null"
		if finish != "" {
			fr = `"` + finish + `"`
		}
		return `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"` + name +
			`","arguments":"` + args + `"}}]},"finish_reason":` + fr + "}]}\n\n"
	}
	for _, tc := range []struct{ stream, want string }{
		{chunk("expand_", "", "") + chunk("context", "{}", "tool_calls"), "expand_context"},
		{chunk("expand_context", "", "") + chunk("expand_context", "{}", "tool_calls"), "expand_context"},
	} {
		out, err := assembleStream([]byte(tc.stream))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := DecodeResponse(out)
		if err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != tc.want {
			t.Fatalf("got %+v, %v; want one call named %s", resp.ToolCalls, err, tc.want)
		}
	}
}

// TestRestreamKeepsIdentity: a stream assembled and re-streamed (as the
// proxy does when it strips phantom calls) keeps the upstream's id,
// created, model and usage, which SDKs surface (finalChatCompletion).
func TestRestreamKeepsIdentity(t *testing.T) {
	raw := "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-x\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"db-9 \"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"failed.\"},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-x\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3,\"total_tokens\":13}}\n\n" +
		"data: [DONE]\n\n"
	done, err := assembleStream([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var c wireBody
	if err := json.Unmarshal(done, &c); err != nil {
		t.Fatal(err)
	}
	if c.ID != "chatcmpl-9" || c.Model != "gpt-x" || string(c.Created) != "1700000000" || c.Object != "chat.completion" ||
		string(c.Usage) != `{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}` || *c.Choices[0].Message.Content != "db-9 failed." {
		t.Fatalf("assembled %s", done)
	}
	again := string(chunkOf(done))
	for _, want := range []string{`"id":"chatcmpl-9"`, `"model":"gpt-x"`, `"created":1700000000`, `"object":"chat.completion.chunk"`,
		`"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13},"choices":[]`, "data: [DONE]"} {
		if !strings.Contains(again, want) {
			t.Fatalf("re-stream lacks %s:\n%s", want, again)
		}
	}
}

// TestAssembleReportsErrorChunk: a chunk that carries an error object (how
// the API reports a failure in the middle of a stream) ends the assembly
// with that error, as the SDKs raise it, even after a finish_reason; its
// text stays on one line.
func TestAssembleReportsErrorChunk(t *testing.T) {
	for _, tc := range []struct{ stream, want string }{
		{"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"db-9\"},\"finish_reason\":null}]}\n\n" +
			"data: {\"error\":{\"message\":\"The server had an error\\nwhile processing\",\"type\":\"server_error\",\"code\":null}}\n\n",
			"openai: stream: error event: server_error: The server had an error while processing"},
		{"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
			"data: {\"error\":{\"message\":\"late\",\"type\":\"x\"}}\n\ndata: [DONE]\n\n",
			"openai: stream: error event: x: late"},
	} {
		out, err := assembleStream([]byte(tc.stream))
		if err == nil || err.Error() != tc.want {
			t.Fatalf("got %s, %v; want the error %q", out, err, tc.want)
		}
	}
}

// TestAssembleJoinsPiecesInLinearMemory: a call whose arguments (or name)
// come in thousands of tiny pieces, as a model streams a long argument
// token by token, is joined with memory linear in the stream, not a copy
// of the whole so far for each piece (which made a 10 MiB stream of
// 4-byte pieces copy about 29 GB). The joined call is the pieces in order.
func TestAssembleJoinsPiecesInLinearMemory(t *testing.T) {
	const pieces = 16_000
	for _, field := range []string{"arguments", "name"} {
		var b strings.Builder
		b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"w\",\"arguments\":\"\"}}]}}]}\n\n")
		for i := range pieces {
			fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{%q:\"%c\"}}]}}]}\n\n", field, 'a'+i%2)
		}
		b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")
		raw := []byte(b.String())
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, err := assembleStream(raw)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := DecodeResponse(out)
		if err != nil || len(resp.ToolCalls) != 1 {
			t.Fatalf("%s: got %+v, %v; want one call", field, resp.ToolCalls, err)
		}
		want, got := "w"+strings.Repeat("ab", pieces/2), resp.ToolCalls[0].Name
		if field == "arguments" {
			want, got = strings.Repeat("ab", pieces/2), string(resp.ToolCalls[0].Arguments)
		}
		if got != want {
			t.Fatalf("%s: joined %d bytes, want the %d pieces in order", field, len(got), pieces)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*uint64(len(raw)) {
			t.Fatalf("%s: assembling a %d-byte stream allocated %d bytes (%.0f per byte); want at most 16 per byte",
				field, len(raw), alloc, float64(alloc)/float64(len(raw)))
		}
	}
}
