package docscheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/docscheck"
)

var _ = Describe("Blocks", func() {
	It("returns each fenced block with its line, kind and text", func() {
		text := "# t\n\n```sh\ngo test ./...\n```\n\n~~~~yaml x\na: 1\n~~~~\n```\nbare\n```\n"
		bs, err := docscheck.Blocks("R.md", text)
		Expect(err).NotTo(HaveOccurred())
		Expect(bs).To(HaveLen(3))
		Expect(bs[0]).To(Equal(docscheck.Block{File: "R.md", Line: 3, Info: "sh", Text: "go test ./...\n"}))
		Expect(bs[1].Info).To(Equal("yaml"))
		Expect(bs[1].Text).To(Equal("a: 1\n"))
		Expect(bs[2].Info).To(Equal(""))
		Expect(bs[0].Shell()).To(BeTrue())
		Expect(bs[1].Shell()).To(BeFalse())
	})

	It("keeps a shorter fence inside a longer one as text", func() {
		bs, err := docscheck.Blocks("R.md", "````text\n```sh\nx\n```\n````\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(bs).To(HaveLen(1))
		Expect(bs[0].Text).To(Equal("```sh\nx\n```\n"))
	})

	It("refuses a block that is never closed, at its line", func() {
		_, err := docscheck.Blocks("R.md", "a\n```sh\nx\n")
		Expect(err).To(MatchError("docscheck: R.md:2: code block not closed"))
	})

	DescribeTable("the not-run marker",
		func(text string, reason string, marked bool) {
			r, ok := docscheck.Block{Info: "sh", Text: text}.NotRun()
			Expect(ok).To(Equal(marked))
			Expect(r).To(Equal(reason))
		},
		Entry("a sh comment", "# docs: not run (needs the network)\nnpm ci\n", "needs the network", true),
		Entry("a transcript's comment", "$ # docs: not run (minutes)\n$ make test\n", "minutes", true),
		Entry("only the first line counts", "ls\n# docs: not run (x)\n", "", false),
		Entry("no marker", "ls\n", "", false),
	)
})

var _ = Describe("Links and Anchors", func() {
	It("finds inline links and images outside code", func() {
		text := "See [a](docs/a.md#x-y) and ![c](../c.svg).\n`[no](code.md)`\n```text\n[no](block.md)\n```\n[u](https://example.com)\n"
		ls := docscheck.Links("R.md", text)
		Expect(ls).To(HaveLen(3))
		Expect(ls[0]).To(Equal(docscheck.Link{File: "R.md", Line: 1, Target: "docs/a.md#x-y"}))
		Expect(ls[1].Target).To(Equal("../c.svg"))
		Expect(ls[2].Relative()).To(BeFalse())
		Expect(ls[0].Relative()).To(BeTrue())
	})

	It("finds a link whose text runs over two lines, at its target's line", func() {
		ls := docscheck.Links("R.md", "a [Goldens outside\n`scenarios/`](#goldens-outside-scenarios) b\n")
		Expect(ls).To(Equal([]docscheck.Link{{File: "R.md", Line: 2, Target: "#goldens-outside-scenarios"}}))
	})

	DescribeTable("Anchor derives GitHub's anchor from a heading",
		func(heading, want string) { Expect(docscheck.Anchor(heading)).To(Equal(want)) },
		Entry(nil, "`toolout serve` against misbehaving clients", "toolout-serve-against-misbehaving-clients"),
		Entry(nil, "The oversize policy: byte cap, context left, recovery tools", "the-oversize-policy-byte-cap-context-left-recovery-tools"),
		Entry(nil, "Goldens outside `scenarios/`", "goldens-outside-scenarios"),
		Entry(nil, "`toolout gateway serve|compress|shadow-id`", "toolout-gateway-servecompressshadow-id"),
	)

	It("suffixes a repeated heading's anchor and skips headings in code", func() {
		as := docscheck.Anchors("# A\n## A\n```sh\n# B\n```\n")
		Expect(as).To(Equal(map[string]bool{"a": true, "a-1": true}))
	})
})
