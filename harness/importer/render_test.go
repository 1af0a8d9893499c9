package importer_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// A scenario is rendered a step at a time (so that a session of 50,000
// steps does not hold the YAML encoder's events for all of them); the
// bytes must be those of one document, whatever the texts hold: block
// scalars, blank lines, indentation, document markers, quotes.
var _ = Describe("Rendering a scenario a step at a time", func() {
	It("writes the bytes of one YAML document", func() {
		texts := []string{"plain", "two\nlines", "blank\n\nline", "  leading spaces\nx", "trailing\n", "trailing\n\n\n", "\nleading newline",
			"---\n...\n", "- dash\n? q\n: c", "'single' \"double\"", "tab\there\n\tindented", "ünïcødé\n✓", "", " ", "\n", "a: b\n  c: d",
			"# comment\n#", "| literal\n> folded", "x \ny \n", "\u0085nel\u2028ls", "null", "123", "yes", "~"}
		parts, whole, err := importer.RenderedAsOneDocument(texts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(parts)).To(Equal(string(whole)))
	})
})
