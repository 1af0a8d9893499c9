package docscheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/docscheck"
)

var _ = DescribeTable("Match",
	func(want []string, got string, ok bool) { Expect(docscheck.Match(want, got)).To(Equal(ok)) },
	Entry("the same lines", []string{"a", "b"}, "a\nb\n", true),
	Entry("trailing blanks and spaces ignored", []string{"a  ", ""}, "a\n\n\n", true),
	Entry("a missing line", []string{"a", "b"}, "a\n", false),
	Entry("an extra line", []string{"a"}, "a\nb\n", false),
	Entry("... matches lines in between", []string{"a", "...", "z"}, "a\nb\nc\nz\n", true),
	Entry("... matches no line", []string{"a", "...", "z"}, "a\nz\n", true),
	Entry("... at the end", []string{"a", "..."}, "a\nb\n", true),
	Entry("... backtracks", []string{"...", "x", "y"}, "x\nx\ny\n", true),
	Entry("... is not a wildcard inside a line", []string{"a ... z"}, "a b z\n", false),
	Entry("nothing shown, nothing printed", []string(nil), "", true),
	Entry("nothing shown, something printed", []string(nil), "x\n", false),
)
