package llmwire_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// maxFuzzText bounds a fuzzed text and argument (every prefix of a stream is
// assembled, so a case costs the square of its size).
const maxFuzzText = 96

// FuzzRender checks the rendered streams against the gateway's own readers
// (each wire's Assemble), for any text, tool-call argument and chunking, on
// the three wires (chat, Messages, Responses):
//   - the whole stream assembles to the scripted answer: its text, and its
//     call's name and arguments;
//   - a stream cut anywhere (in every event: at its start, one byte in,
//     halfway, with its data line whole but its blank line missing, one
//     byte short; and where the fuzzer picks) never assembles to a partial
//     message: it fails, or it assembles to that same whole answer (a cut
//     after the end events);
//   - disconnect_after K (with or without mid_event) never assembles, and
//     error_after K fails with the scripted error;
//   - the in-process body reads the same bytes, then io.EOF, or
//     io.ErrUnexpectedEOF for a cut stream.
func FuzzRender(f *testing.F) {
	f.Add("Request 1077 failed: db-9 timed out after 30s.", "db-9", uint8(4), uint8(2))
	f.Add("", "x", uint8(1), uint8(0))
	f.Add("é\u2028\"\\<>&{{nonce}}", "{\"}\n", uint8(7), uint8(9))
	f.Fuzz(func(t *testing.T, text, arg string, chunks, fault uint8) {
		if !utf8.ValidString(text) || !utf8.ValidString(arg) || len(text) > maxFuzzText || len(arg) > maxFuzzText {
			return
		}
		n := 1 + int(chunks%6)
		for _, w := range []llmwire.Wire{llmwire.OpenAI, llmwire.Anthropic, llmwire.Responses} {
			whole := render(t, w, text, arg, fakes.StreamSpec{Chunks: n})
			want := decoded(t, w, whole.Bytes(), nil)
			if want.Text != strings.ReplaceAll(text, "{{nonce}}", "") || len(want.ToolCalls) != 1 || want.ToolCalls[0].Name != "f" {
				t.Fatalf("%s: the whole stream assembles to %+v", w, want)
			}
			var args map[string]string
			if err := json.Unmarshal(want.ToolCalls[0].Arguments, &args); err != nil || args["q"] != arg {
				t.Fatalf("%s: the call's arguments assemble to %s (%v)", w, want.ToolCalls[0].Arguments, err)
			}
			raw := whole.Bytes()
			for _, i := range cuts(whole, int(fault)) {
				if got, err := assemble(w, raw[:i]); err == nil && !reflect.DeepEqual(decoded(t, w, raw[:i], got), want) {
					t.Fatalf("%s: the stream cut at byte %d/%d assembles to a partial message:\n%s\n%s", w, i, len(raw), raw[:i], got)
				}
			}
			checkFaults(t, w, text, arg, n, int(fault))
		}
	})
}

// cuts are the byte positions to cut a whole stream at: in every event,
// its start, one byte in, its middle, before its last line break (its data
// line whole, the blank line that ends it missing) and before its last
// byte, and one position picked by the fuzzer.
func cuts(a llmwire.Answer, pick int) []int {
	var out []int
	at := 0
	for _, ev := range a.Events {
		n := len(ev.Bytes())
		out = append(out, at, at+1, at+n/2, at+n-2, at+n-1)
		at += n
	}
	return append(out, pick%at)
}

// checkFaults renders every fault after k chunks (k from fault) and checks
// how each ends.
func checkFaults(t *testing.T, w llmwire.Wire, text, arg string, n, fault int) {
	total := render(t, w, text, arg, fakes.StreamSpec{Chunks: n}).Events
	k := fault % (countDeltas(total) + 1)
	for _, spec := range []fakes.StreamSpec{
		{Chunks: n, DisconnectAfter: &k},
		{Chunks: n, DisconnectAfter: &k, MidEvent: true},
		{Chunks: n, ErrorAfter: &k},
	} {
		a := render(t, w, text, arg, spec)
		_, err := assemble(w, a.Bytes())
		switch {
		case spec.ErrorAfter != nil && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("scripted stream error after %d chunk(s)", k))):
			t.Fatalf("%s: error_after %d assembles with %v", w, k, err)
		case spec.DisconnectAfter != nil && err == nil:
			t.Fatalf("%s: disconnect_after %d (mid_event %v) assembles:\n%s", w, k, spec.MidEvent, a.Bytes())
		}
		body, err := io.ReadAll(a.Response(context.Background(), nil).Body)
		if !bytes.Equal(body, a.Bytes()) || (a.Cut != errors.Is(err, io.ErrUnexpectedEOF)) || (!a.Cut && err != nil) {
			t.Fatalf("%s: the body reads %q, %v; want the answer's bytes, cut %v", w, body, err, a.Cut)
		}
	}
}

// render is the scripted answer (text, then a call of f with {"q": arg})
// streamed as spec says, on wire w.
func render(t *testing.T, w llmwire.Wire, text, arg string, spec fakes.StreamSpec) llmwire.Answer {
	t.Helper()
	r := fakes.Respond{ToolCalls: []fakes.CallSpec{{ID: "c1", Name: "f", Args: map[string]any{"q": arg}}}, Stream: &spec}
	if text != "" {
		r.Text = &text
	}
	l, err := fakes.NewLLM([]fakes.Step{{ID: "s", Respond: r}}, fakes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.CompleteStream(context.Background(), core.Request{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.Reply(s, w.ID(1), true)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// decoded is the response an assembled stream spells (assembled from raw
// when msg is nil).
func decoded(t *testing.T, w llmwire.Wire, raw, msg []byte) core.Response {
	t.Helper()
	if msg == nil {
		var err error
		if msg, err = assemble(w, raw); err != nil {
			t.Fatalf("%s: the whole stream does not assemble: %v\n%s", w, err, raw)
		}
	}
	decode := map[llmwire.Wire]func([]byte) (core.Response, error){llmwire.OpenAI: openai.DecodeResponse,
		llmwire.Anthropic: anthropic.DecodeResponse, llmwire.Responses: responses.DecodeResponse}[w]
	resp, err := decode(msg)
	if err != nil {
		t.Fatalf("%s: the assembled message does not decode: %v\n%s", w, err, msg)
	}
	for i, c := range resp.ToolCalls { // compare arguments as JSON values
		var v any
		if json.Unmarshal(c.Arguments, &v) == nil {
			resp.ToolCalls[i].Arguments, _ = json.Marshal(v)
		}
	}
	return resp
}
