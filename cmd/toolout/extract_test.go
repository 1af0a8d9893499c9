package main

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

type planOut struct {
	Stats struct {
		Bytes, Lines, Tokens int
	}
	Mode         string
	Reason       string
	ChunkBudget  int `json:"chunk_budget"`
	PromptTokens int `json:"prompt_tokens"`
	Chunks       []struct{ Index, Start, End, Tokens int }
	Fails        string
}

func plan(stdin string, args ...string) planOut {
	stdout := succeeds(stdin, append([]string{"extract", "plan"}, args...)...)
	var p planOut
	Expect(json.Unmarshal([]byte(stdout), &p)).To(Succeed())
	return p
}

var _ = Describe("toolout extract plan", func() {
	It("routes a 2 MB single-line JSON to full-chunked for its long line, whatever max chunks says", func() {
		var b strings.Builder
		b.WriteString(`{"items":[`)
		for i := 0; b.Len() < 2<<20; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"sku":"SKU-%06d","price":%d.%02d,"tags":["a","b"]}`, i, i, i%997, i%100)
		}
		b.WriteString(`]}`)
		p := plan(b.String(), "--extract", "the price of SKU-000123")
		Expect(p.Stats.Lines).To(Equal(1))
		Expect(p.Mode).To(Equal("full-chunked"))
		Expect(p.Reason).To(MatchRegexp(`^long lines: average line \d+\.0 bytes \(\d+ bytes / 1 line\) >= threshold 1000$`))
		Expect(p.ChunkBudget).To(Equal(128000 - 256 - 4096 - p.PromptTokens))
		Expect(len(p.Chunks)).To(BeNumerically(">", 1))
		Expect(p.Fails).To(BeEmpty())
		for _, c := range p.Chunks {
			Expect(c.Tokens).To(BeNumerically("<=", p.ChunkBudget))
		}

		p = plan(b.String(), "--extract", "the price of SKU-000123", "--max-chunks-long", "3")
		Expect(p.Fails).To(MatchRegexp(`^full-chunked would fail and fall back to truncate: the output needs \d+ chunks of at most \d+ tokens, over max chunks for long lines 3$`))
	})

	It("routes short lines by chunk count, and shows the plan it would need", func() {
		doc := strings.Repeat("ts=1 host=web-0 level=INFO msg=\"all good here\"\n", 400)
		p := plan(doc, "--extract", "errors", "--context-window", "2000", "--max-output", "200")
		Expect(p.Mode).To(Equal("read-grep"))
		Expect(p.Reason).To(HavePrefix("too large for full-chunked: "))
		Expect(len(p.Chunks)).To(BeNumerically(">", 1))
		p = plan(doc, "--extract", "errors", "--context-window", "2000", "--max-output", "200", "--max-chunks", "10")
		Expect(p.Mode).To(Equal("full-chunked"))
		Expect(p.Reason).To(HavePrefix("fits: "))
		p = plan(doc, "--extract", "errors", "--mode", "truncate")
		Expect(p.Mode).To(Equal("truncate"))
		Expect(p.Reason).To(Equal("requested"))
	})

	It("routes an offered extra mode as requested", func() {
		p := plan("x", "--extract", "e", "--offer-modes", "json-aware,head-tail", "--mode", "head-tail")
		Expect(p.Mode).To(Equal("head-tail"))
		Expect(p.Reason).To(Equal("requested"))
	})

	It("counts the extract text and tool metadata in the budget", func() {
		short := plan("x", "--extract", "e")
		long := plan("x", "--extract", strings.Repeat("field ", 50), "--tool", "orders__list", "--args", `{"status":"open"}`)
		Expect(long.ChunkBudget).To(BeNumerically("<", short.ChunkBudget-50))
	})

	DescribeTable("rejects bad input in one line",
		refused("x", "extract"),
		Entry("no subcommand", []string{}, "toolout extract: want a subcommand: plan or cut\n"),
		Entry("no extract", []string{"plan"}, "toolout extract plan: --extract is required (the extract instructions)\n"),
		Entry("bad mode", []string{"plan", "--extract", "e", "--mode", "fast"}, "toolout extract plan: --mode \"fast\": want auto, full-chunked, read-grep or truncate (json-aware, head-tail or query with --offer-modes)\n"),
		Entry("mode not offered", []string{"plan", "--extract", "e", "--mode", "head-tail"}, "toolout extract plan: --mode head-tail: not offered; add --offer-modes head-tail\n"),
		Entry("unknown extra mode", []string{"plan", "--extract", "e", "--offer-modes", "head-tail,summarize"}, "toolout extract plan: --offer-modes \"summarize\": want json-aware, head-tail or query\n"),
		Entry("extra mode twice", []string{"plan", "--extract", "e", "--offer-modes", "head-tail, head-tail"}, "toolout extract plan: --offer-modes \"head-tail\": listed twice\n"),
		Entry("bad cut", []string{"plan", "--extract", "e", "--truncate-with", "chars"}, "toolout extract plan: --truncate-with \"chars\": want bytes, head-tail or json-aware\n"),
		Entry("head over 100", []string{"plan", "--extract", "e", "--head-percent", "101"}, "toolout extract plan: --head-percent 101: must be 0 to 100\n"),
		Entry("cut with a model", []string{"cut", "--mode", "auto"}, "toolout extract cut: --mode \"auto\": want truncate, head-tail or json-aware (the modes that call no model)\n"),
		Entry("cut with no budget", []string{"cut", "--truncate-bytes", "0"}, "toolout extract cut: --truncate-bytes 0: must be positive\n"),
		Entry("bad args", []string{"plan", "--extract", "e", "--args", "{"}, "toolout extract plan: --args: not valid JSON: {\n"),
		Entry("overlap of half", []string{"plan", "--extract", "e", "--overlap", "50"}, "toolout extract plan: --overlap-percent 50: must be 0 to 49\n"),
		Entry("zero window", []string{"plan", "--extract", "e", "--context-window", "0"}, "toolout extract plan: --context-window 0: must be positive (at most 1073741824)\n"),
		Entry("missing file", []string{"plan", "--extract", "e", "nope.json"}, "toolout extract plan: nope.json: no such file or directory\n"),
	)
})
