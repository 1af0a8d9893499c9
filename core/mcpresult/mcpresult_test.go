package mcpresult_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/mcpresult"
)

func normalize(raw string) mcpresult.Normalized {
	GinkgoHelper()
	r, err := mcpresult.Parse([]byte(raw))
	Expect(err).NotTo(HaveOccurred())
	return mcpresult.Normalize(r)
}

var _ = Describe("Normalize", func() {
	It("counts a structured result and its text once, the text standing for it", func() {
		n := normalize(`{"content":[{"type":"text","text":"{\n  \"items\": [1, 2],\n  \"next\": null\n}"}],` +
			`"structuredContent":{"next":null,"items":[1,2]}}`)
		Expect(n.Deduplicated).To(BeTrue())
		Expect(n.Text).To(Equal("{\n  \"items\": [1, 2],\n  \"next\": null\n}"))
	})

	It("reads a root-array structuredContent, alone when there are no blocks", func() {
		n := normalize(`{"content":[],"structuredContent":[{"id":1},{"id":2}]}`)
		Expect(n.Text).To(Equal(`[{"id":1},{"id":2}]`))
		Expect(n.Deduplicated).To(BeFalse())
		n = normalize(`{"content":[{"type":"text","text":"[{\"id\": 1}, {\"id\": 2}]"}],"structuredContent":[{"id":1},{"id":2}]}`)
		Expect(n.Deduplicated).To(BeTrue())
		Expect(n.Text).To(Equal(`[{"id": 1}, {"id": 2}]`))
	})

	DescribeTable("keeps both when the text is not the same JSON value",
		func(text, structured string) {
			raw, _ := json.Marshal(text)
			n := normalize(`{"content":[{"type":"text","text":` + string(raw) + `}],"structuredContent":` + structured + `}`)
			Expect(n.Deduplicated).To(BeFalse())
			Expect(n.Text).To(Equal(text + "\n" + structured))
		},
		Entry("a summary in words", "Found 2 items.", `{"items":[1,2]}`),
		Entry("another value", `{"items":[1,3]}`, `{"items":[1,2]}`),
		Entry("JSON then more", `{"items":[1,2]} and more`, `{"items":[1,2]}`),
		Entry("an integer against a fraction", `{"n":1}`, `{"n":1.0}`),
		Entry("integers past float64's precision", `{"n":9007199254740993}`, `{"n":9007199254740992}`),
	)

	It("compares fractions by value and objects by members", func() {
		n := normalize(`{"content":[{"type":"text","text":"{\"b\": 15e-1, \"a\": \"x\"}"}],"structuredContent":{"a":"x","b":1.5}}`)
		Expect(n.Deduplicated).To(BeTrue())
	})

	It("keeps a resource_link as a pointer line and an embedded text resource with its text", func() {
		n := normalize(`{"content":[{"type":"text","text":"Wrote the report."},` +
			`{"type":"resource_link","uri":"file:///tmp/report.csv","name":"report.csv","mimeType":"text/csv","size":1048576},` +
			`{"type":"resource","resource":{"uri":"mem://notes","mimeType":"text/plain","text":"line 1\nline 2"}}]}`)
		Expect(strings.Split(n.Text, "\n")).To(Equal([]string{
			"Wrote the report.",
			`[resource_link uri="file:///tmp/report.csv" name="report.csv" mimeType="text/csv" size=1048576]`,
			"[resource: mem://notes, text/plain]", "line 1", "line 2",
		}))
		Expect(n.Binary).To(BeZero())
	})

	It("replaces image, audio and blob blocks by a line naming their type and size", func() {
		png := strings.Repeat("A", 4000) // 3,000 bytes
		n := normalize(`{"content":[{"type":"image","data":"` + png + `","mimeType":"image/png"},` +
			`{"type":"audio","data":"AAAA","mimeType":"audio/wav"},` +
			`{"type":"resource","resource":{"uri":"file:///a.pdf","mimeType":"application/pdf","blob":"AAAAAA=="}},` +
			`{"type":"video","data":"x"}]}`)
		Expect(n.Text).To(Equal("[image: image/png, 3000 bytes]\n[audio: audio/wav, 3 bytes]\n" +
			"[resource: file:///a.pdf, application/pdf, 4 bytes]\n[\"video\" block]"))
		Expect(n.Text).NotTo(ContainSubstring(png))
		Expect(n.Binary).To(Equal(3))
	})

	DescribeTable("honours a size hint in _meta as the tool's own limit",
		func(meta string, want int) {
			Expect(normalize(`{"content":[{"type":"text","text":"x"}],"_meta":` + meta + `}`).MaxChars).To(Equal(want))
		},
		Entry("a positive integer", `{"anthropic/maxResultSizeChars":50000}`, 50000),
		Entry("none", `{"other":1}`, 0),
		Entry("zero", `{"anthropic/maxResultSizeChars":0}`, 0),
		Entry("negative", `{"anthropic/maxResultSizeChars":-5}`, 0),
		Entry("a string", `{"anthropic/maxResultSizeChars":"50000"}`, 0),
		Entry("a fraction", `{"anthropic/maxResultSizeChars":1.5}`, 0),
	)

	It("keeps isError", func() {
		Expect(normalize(`{"content":[{"type":"text","text":"no such file"}],"isError":true}`).IsError).To(BeTrue())
	})
})

var _ = Describe("Parse", func() {
	DescribeTable("fails in one line naming the byte",
		func(raw, want string) {
			_, err := mcpresult.Parse([]byte(raw))
			Expect(err).To(MatchError(ContainSubstring(want)))
			Expect(err.Error()).NotTo(ContainSubstring("\n"))
		},
		Entry("not JSON", `{"content":[`, "mcp result: "),
		Entry("a syntax error", `{"content":[}`, "invalid JSON at byte 13"),
		Entry("content not a list", `{"content":"x"}`, "content: want a []mcpresult.Block, got a string"),
		Entry("a block's text not a string", `{"content":[{"type":"text","text":5}]}`, "content.text: want a string, got a number"),
	)
})

// FuzzNormalize: on any bytes Parse fails or Normalize gives a text; the
// text holds every text block unless it stood for structuredContent, no
// base64 data, and is no longer than thrice the input (invalid UTF-8 is
// read as U+FFFD) and a line per block.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}`))
	f.Add([]byte(`{"content":[{"type":"image","data":"QUJD","mimeType":"image/png"},{"type":"resource_link","uri":"x","size":-1}]}`))
	f.Add([]byte(`{"content":[{"type":"resource","resource":{"uri":"u","blob":"=="}}],"structuredContent":[1e400],"_meta":{"anthropic/maxResultSizeChars":99999999999999999999}}`))
	f.Add([]byte(`{"content":null,"structuredContent":"s"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := mcpresult.Parse(raw)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		n := mcpresult.Normalize(r)
		if len(n.Text) > 3*len(raw)+200*(len(r.Content)+1) { // invalid UTF-8 decodes to U+FFFD, 3 bytes a byte
			t.Fatalf("text of %d bytes from %d", len(n.Text), len(raw))
		}
		for _, b := range r.Content {
			if b.Type == "text" && !n.Deduplicated && !strings.Contains(n.Text, b.Text) {
				t.Fatalf("text block %q lost", b.Text)
			}
			if (b.Type == "image" || b.Type == "audio") && len(b.Data) > 16 && strings.Contains(n.Text, b.Data) {
				t.Fatalf("base64 data in the text")
			}
		}
		if n.MaxChars < 0 {
			t.Fatalf("MaxChars %d", n.MaxChars)
		}
	})
}

var _ = Describe("Tool", func() {
	call := func(raw string) *mcpresult.Tool {
		return &mcpresult.Tool{Call: func(context.Context, json.RawMessage) ([]byte, error) { return []byte(raw), nil }}
	}

	It("gives the normalized text and remembers the last result's size hint", func() {
		t := call(`{"content":[{"type":"text","text":"ok"}],"_meta":{"anthropic/maxResultSizeChars":9000}}`)
		out, err := t.Run(context.Background(), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("ok"))
		Expect(t.SizeHint()).To(Equal(9000))
	})

	It("makes an isError result the tool's error, and a result that is not one an error naming the tool", func() {
		_, err := call(`{"content":[{"type":"text","text":"no such table"}],"isError":true}`).Run(context.Background(), nil)
		Expect(err).To(MatchError("no such table"))
		t := call(`{"content":"x"}`)
		t.Desc.Name = "db"
		_, err = t.Run(context.Background(), nil)
		Expect(err).To(MatchError(HavePrefix("db: mcp result: ")))
	})
})
