package harness_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
)

var hunkRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// patch applies a unified diff to old, checking every context and deleted
// line, and returns the new text.
func patch(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	src := strings.SplitAfter(old, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	at := 0 // next unread line of src
	for i := 2; i < len(lines) && lines[i] != ""; {
		m := hunkRE.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			return "", fmt.Errorf("line %d: bad hunk header %q", i+1, lines[i])
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if n > 0 {
			start--
		}
		for at < start {
			out = append(out, src[at])
			at++
		}
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			if i < len(lines) && strings.HasPrefix(lines[i], `\ No newline`) {
				l = strings.TrimSuffix(l, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if at >= len(src) || src[at] != l[1:] {
					return "", fmt.Errorf("line %d: %q does not match old line %d", i, l, at+1)
				}
				if l[0] == ' ' {
					out = append(out, src[at])
				}
				at++
			case '+':
				out = append(out, l[1:])
			}
		}
	}
	out = append(out, src[at:]...)
	return strings.Join(out, ""), nil
}

var _ = Describe("Diff", func() {
	DescribeTable("produces a unified diff",
		func(old, new, want string) {
			got := harness.Diff("a", "b", old, new)
			Expect(got).To(Equal(want))
			Expect(patch(old, got)).To(Equal(new))
		},
		Entry("equal texts", "x\ny\n", "x\ny\n", ""),
		Entry("empty to text", "", "a\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n"),
		Entry("text to empty", "a\nb\n", "", "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n"),
		Entry("change at start", "a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n", "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n"),
		Entry("change at end", "a\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", "--- a\n+++ b\n@@ -2,4 +2,4 @@\n b\n c\n d\n-e\n+E\n"),
		Entry("missing newline at end", "a\nb\n", "a\nb", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"),
		Entry("only additions", "a\nc\n", "a\nb\nc\n", "--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"),
		Entry("crlf kept", "a\r\nb\r\n", "a\r\nB\r\n", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n"),
	)

	It("splits distant changes into hunks and merges near ones", func() {
		var old []string
		for i := range 30 {
			old = append(old, fmt.Sprintf("line %d\n", i))
		}
		distant := append([]string(nil), old...)
		distant[2], distant[25] = "X\n", "Y\n"
		d := harness.Diff("a", "b", strings.Join(old, ""), strings.Join(distant, ""))
		Expect(strings.Count(d, "\n@@ ")).To(Equal(2))
		near := append([]string(nil), old...)
		near[10], near[15] = "X\n", "Y\n"
		d = harness.Diff("a", "b", strings.Join(old, ""), strings.Join(near, ""))
		Expect(strings.Count(d, "\n@@ ")).To(Equal(1))
	})

	It("round-trips random texts through patch", func() {
		rng := rand.New(rand.NewPCG(7, 11))
		text := func() string {
			var b strings.Builder
			for range rng.IntN(40) {
				fmt.Fprintf(&b, "%c\n", 'a'+rng.IntN(4))
			}
			if rng.IntN(4) == 0 {
				b.WriteString("tail")
			}
			return b.String()
		}
		for range 500 {
			old, new := text(), text()
			Expect(patch(old, harness.Diff("a", "b", old, new))).To(Equal(new), "old %q new %q", old, new)
		}
	})

	It("stays correct when the texts differ everywhere", func() {
		var a, b strings.Builder
		for i := range 5000 {
			fmt.Fprintf(&a, "a%d\n", i)
			fmt.Fprintf(&b, "b%d\n", i)
		}
		Expect(patch(a.String(), harness.Diff("a", "b", a.String(), b.String()))).To(Equal(b.String()))
	})
})
