package proxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/internal/gatewaytest"
)

// shape is one way a client can send a tool result's content: a wire and
// whether the content is a string or a list of text parts.
type shape struct {
	name   string
	wire   gateway.Wire
	parts  bool
	decode func([]byte, core.Tag) (core.Request, bool, error)
	encode func(core.Response) []byte
}

var shapes = []shape{
	{"openai string", openai.Wire{}, false, openai.DecodeRequest, openaiResponse},
	{"openai text parts", openai.Wire{}, true, openai.DecodeRequest, openaiResponse},
	{"anthropic string", anthropic.Wire{}, false, anthropic.DecodeRequest, anthropicResponse},
	{"anthropic text blocks", anthropic.Wire{}, true, anthropic.DecodeRequest, anthropicResponse},
}

func openaiResponse(r core.Response) []byte { return openai.EncodeResponse(r, "cmpl-1", "gpt-test") }
func anthropicResponse(r core.Response) []byte {
	return anthropic.EncodeResponse(r, "msg_1", "claude-test")
}

// content renders parts as the shape sends them: one string, or one text
// part per element (raw parts, e.g. an image, are inserted as they are).
func (s shape) content(parts []string) any {
	if !s.parts {
		return strings.Join(parts, "")
	}
	list := make([]any, len(parts))
	for i, p := range parts {
		list[i] = map[string]any{"type": "text", "text": p}
	}
	return list
}

// body is a request whose one tool result holds content; html picks
// encoding/json's escaping of <, > and &.
func (s shape) body(content any, html bool) []byte {
	var msgs []any
	if s.wire.Name() == "openai" {
		msgs = []any{
			map[string]any{"role": "user", "content": "what failed?"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
				"function": map[string]any{"name": "logs", "arguments": "{}"}}}},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": content},
		}
	} else {
		msgs = []any{
			map[string]any{"role": "user", "content": "what failed?"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "logs", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": content}}},
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	Expect(enc.Encode(map[string]any{"model": "m", "max_tokens": 1024, "messages": msgs})).To(Succeed())
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// toolContents returns the raw content of every tool result in a request
// body, read with encoding/json rather than the wire under test.
func toolContents(wire string, body []byte) []json.RawMessage {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	Expect(json.Unmarshal(body, &req)).To(Succeed())
	var out []json.RawMessage
	for _, m := range req.Messages {
		if wire == "openai" && m.Role == "tool" {
			out = append(out, m.Content)
		}
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if wire == "anthropic" && json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out = append(out, b.Content)
				}
			}
		}
	}
	return out
}

// trip is what one client request went through: the gateway's outcome and
// the tool contents of each forwarded body, as the upstream read them.
type trip struct {
	out      gateway.Outcome
	contents [][]json.RawMessage
}

// run sends body through a gateway whose upstream calls expand_context in
// round 1 when the forwarded body holds a marker, and answers otherwise.
func run(s shape, g *gateway.Gateway, body []byte) trip {
	GinkgoHelper()
	var t trip
	up := func(_ context.Context, round int, fwd []byte) ([]byte, error) {
		cs := toolContents(s.wire.Name(), fwd)
		t.contents = append(t.contents, cs)
		var first string
		if round == 1 && json.Unmarshal(cs[0], &first) == nil {
			if id, _, ok := gateway.ParseMark(first); ok {
				args, _ := json.Marshal(map[string]string{"shadow_id": id})
				return s.encode(core.Response{ToolCalls: []core.ToolCall{{ID: "x1", Name: gateway.ExpandToolName, Arguments: args}}}), nil
			}
		}
		return s.encode(core.Response{Text: "done"}), nil
	}
	var err error
	t.out, err = g.Handle(context.Background(), body, up)
	Expect(err).NotTo(HaveOccurred())
	return t
}

// exactGateway compresses every output longer than minBytes to "~".
func exactGateway(w gateway.Wire, minBytes int) *gateway.Gateway {
	GinkgoHelper()
	src, _ := gatewaytest.Manual()
	p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{MinBytes: minBytes, RateLimit: 1e6},
		Compressor: gatewaytest.CompressorFunc(func(gateway.Input) (string, error) { return "~", nil }),
		Store:      memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
	Expect(err).NotTo(HaveOccurred())
	return &gateway.Gateway{Pipe: p, Wire: w, Expand: true, KeepForwarded: true}
}

// atoms are the pieces random texts are made of: ASCII, white space and
// line ends, JSON's special characters and escapes as text, control
// characters, multi-byte UTF-8 (2, 3 and 4 bytes, a combining sequence, a
// BOM, U+2028), and HTML characters encoding/json may escape.
var atoms = []string{"a", "Z", "0", " ", "  ", "\n", "\r\n", "\r", "\t", `"`, `\`, "/", "{", "}", "[", "]", ":", ",",
	`\n`, `\u0041`, "null", `"}]}`, "\x00", "\x1f", "\x7f", "é", "ß", "中文", "😀", "e\u0301", "\ufeff", "\u2028", "\u2029",
	"\ufffd", "<", ">", "&", "<b>", "line 42: host=db-9 status=FAILED\n"}

// randomText is up to max atoms long (possibly empty).
func randomText(r *rand.Rand, max int) string {
	var b strings.Builder
	for range r.IntN(max + 1) {
		b.WriteString(atoms[r.IntN(len(atoms))])
	}
	return b.String()
}

// randomSplit cuts text at up to k-1 random rune boundaries (a JSON string
// holds whole characters), so parts may be empty, and sometimes adds an
// empty part.
func randomSplit(r *rand.Rand, text string, k int) []string {
	var bounds []int
	for i := range text {
		bounds = append(bounds, i)
	}
	bounds = append(bounds, len(text))
	cuts := make([]int, r.IntN(k))
	for i := range cuts {
		cuts[i] = bounds[r.IntN(len(bounds))]
	}
	cuts = append(cuts, 0, len(text))
	slices.Sort(cuts)
	var parts []string
	for i := 1; i < len(cuts); i++ {
		parts = append(parts, text[cuts[i-1]:cuts[i]])
	}
	if r.IntN(4) == 0 {
		at := r.IntN(len(parts) + 1)
		parts = append(parts[:at], append([]string{""}, parts[at:]...)...)
	}
	return parts
}

// firstDiff describes where got and want differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return fmt.Sprintf("got %d bytes, want %d; first difference at byte %d", len(got), len(want), i)
}

// checkExact is the property for one content: the wire reads the
// concatenation of the parts as the original (and DecodeRequest reads the
// same text), and end to end the expand_context answer the upstream gets
// is exactly those bytes, under the shadow id of those bytes. Outputs of
// minBytes or fewer bytes pass through: the body is forwarded as sent.
func checkExact(s shape, parts []string, html bool, minBytes int, what string) {
	GinkgoHelper()
	want := strings.Join(parts, "")
	body := s.body(s.content(parts), html)
	c, err := s.wire.Read(body)
	Expect(err).NotTo(HaveOccurred(), what)
	Expect(c.Outputs).To(HaveLen(1), what)
	Expect(c.Outputs[0].Content == want).To(BeTrue(), "%s: Read: %s", what, firstDiff(c.Outputs[0].Content, want))
	req, _, err := s.decode(body, core.Tag{})
	Expect(err).NotTo(HaveOccurred(), what)
	Expect(req.Messages[2].Content == want).To(BeTrue(), "%s: DecodeRequest: %s", what, firstDiff(req.Messages[2].Content, want))

	t := run(s, exactGateway(s.wire, minBytes), body)
	if len(want) <= minBytes {
		Expect(t.out.Rounds).To(Equal(1), what)
		Expect(bytes.Equal(t.out.Forwarded[0], body)).To(BeTrue(), "%s: a passthrough is forwarded as sent", what)
		return
	}
	id := gateway.ShadowID(want)
	Expect(t.out.Results).To(ConsistOf(HaveField("ShadowID", id)), what)
	Expect(t.out.Expansions).To(Equal([]gateway.Expansion{{Round: 1, CallID: "x1", ShadowID: id, Answer: gateway.AnswerOriginal}}), what)
	var marked, answer string
	Expect(json.Unmarshal(t.contents[0][0], &marked)).To(Succeed(), "%s: a compressed content is one string, whatever its shape", what)
	Expect(marked).To(Equal(gateway.Mark(id, "~")), what)
	_, _, err = s.decode(t.out.Forwarded[0], core.Tag{})
	Expect(err).NotTo(HaveOccurred(), "%s: the rewritten body is a valid request", what)
	Expect(t.contents).To(HaveLen(2), what)
	Expect(json.Unmarshal(t.contents[1][len(t.contents[1])-1], &answer)).To(Succeed(), what)
	Expect(answer == want).To(BeTrue(), "%s: expand_context answer: %s", what, firstDiff(answer, want))
}

var _ = Describe("expand_context gives back the tool content byte for byte", func() {
	// The case: 51,200 bytes of log in two text parts came back as
	// 51,201 (the parts joined by "\n").
	DescribeTable("51,200 bytes in two text parts expand to exactly 51,200 bytes",
		func(s shape) {
			text := strings.Repeat(bigLog("db-9"), 5)[:51200]
			parts := []string{text[:25600], text[25600:]}
			t := run(s, newGatewayOn(s.wire), s.body(s.content(parts), true))
			Expect(t.out.Expansions).To(HaveLen(1))
			Expect(t.out.Expansions[0].ShadowID).To(Equal(gateway.ShadowID(text)))
			var answer string
			Expect(json.Unmarshal(t.contents[1][len(t.contents[1])-1], &answer)).To(Succeed())
			Expect(answer).To(HaveLen(51200))
			Expect(answer == text).To(BeTrue(), firstDiff(answer, text))
		},
		func(s shape) string { return s.name },
		Entry(nil, shapes[1]), Entry(nil, shapes[3]))

	It("for random texts cut into 1..6 parts, in every shape of both wires", func() {
		r := rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), 19))
		for i := range 150 {
			text := randomText(r, 600)
			if i%10 == 0 {
				text = randomText(r, 3) // short: passes through
			}
			parts := randomSplit(r, text, 6)
			html := r.IntN(2) == 0
			for _, s := range shapes {
				what := fmt.Sprintf("case %d (seed %d), %s, parts of %v bytes", i, GinkgoRandomSeed(), s.name, lens(parts))
				checkExact(s, parts, html, 2, what)
			}
		}
	})

	// Compressing the text of a list that also holds an image would drop
	// the image with the rest of the value: such a result is not read.
	DescribeTable("leaves a content list holding a part other than text as the client sent it",
		func(s shape, other any) {
			text := bigLog("db-9")
			content := []any{map[string]any{"type": "text", "text": text[:5000]}, other, map[string]any{"type": "text", "text": text[5000:]}}
			body := s.body(content, false)
			c, err := s.wire.Read(body)
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Outputs).To(BeEmpty())
			t := run(s, exactGateway(s.wire, 2), body)
			Expect(t.out.Rounds).To(Equal(1))
			Expect(string(t.out.Forwarded[0])).To(Equal(string(body)))
		},
		func(s shape, other any) string { b, _ := json.Marshal(other); return s.name + ": " + string(b) },
		Entry(nil, shapes[1], map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgo="}}),
		Entry(nil, shapes[1], map[string]any{"type": "text", "text": nil}),
		Entry(nil, shapes[3], map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}),
		Entry(nil, shapes[3], map[string]any{"type": "document", "source": map[string]any{"type": "text", "media_type": "text/plain", "data": "x"}}),
		Entry(nil, shapes[3], map[string]any{"type": "text", "text": 7}),
		Entry(nil, shapes[3], "a bare string"))

	It("keeps empty parts and a content of nothing but empty parts", func() {
		for _, s := range shapes {
			checkExact(s, []string{"", ""}, false, 2, s.name+": two empty parts")
			checkExact(s, []string{"", strings.Repeat("é", 8), "", "😀"}, false, 2, s.name+": empty parts around text")
		}
	})
})

// newGatewayOn is newGateway's gateway (default bounds, Simple{Words: 8})
// on wire w.
func newGatewayOn(w gateway.Wire) *gateway.Gateway {
	g := newGateway(true)
	g.Wire = w
	return g
}

func lens(parts []string) []int {
	n := make([]int, len(parts))
	for i, p := range parts {
		n[i] = len(p)
	}
	return n
}
