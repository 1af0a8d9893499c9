package finalreport_test

import (
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/finalreport"
)

func found(content string, closed bool) finalreport.Report {
	return finalreport.Report{Found: true, Content: content, Closed: closed}
}

var none = finalreport.Report{}

var _ = Describe("Parse", func() {
	DescribeTable("finds the report for the nonce",
		func(text string, want finalreport.Report) {
			Expect(finalreport.Parse(text, "abc")).To(Equal(want))
		},
		Entry("closed wrapper", `<ai-agent-abc-FINAL format="text">x</ai-agent-abc-FINAL>`, found("x", true)),
		Entry("closing tag optional", `<ai-agent-abc-FINAL format="text"> x `, found("x", false)),
		Entry("no attributes", `<ai-agent-abc-FINAL>x</ai-agent-abc-FINAL>`, found("x", true)),
		Entry("attributes ignored", `<ai-agent-abc-FINAL status="ok" format="text">x</ai-agent-abc-FINAL>`, found("x", true)),
		Entry("newline inside the opening tag", "<ai-agent-abc-FINAL\nformat=\"text\">x</ai-agent-abc-FINAL>", found("x", true)),
		Entry("leading think stripped", `<think>a</think><ai-agent-abc-FINAL>x`, found("x", false)),
		Entry("white space before think", " \n<think>a</think>\n<ai-agent-abc-FINAL>x", found("x", false)),
		Entry("wrapper inside leading think ignored", `<think><ai-agent-abc-FINAL>in</ai-agent-abc-FINAL></think>`, none),
		Entry("wrapper inside think, another after", `<think><ai-agent-abc-FINAL>in</ai-agent-abc-FINAL></think><ai-agent-abc-FINAL>out`, found("out", false)),
		Entry("unclosed leading think is all thinking", `<think><ai-agent-abc-FINAL>x`, none),
		Entry("think not leading is text", `hi <think><ai-agent-abc-FINAL>x</ai-agent-abc-FINAL></think>`, found("x", true)),
		Entry("only one think stripped", `<think>a</think><think><ai-agent-abc-FINAL>x</ai-agent-abc-FINAL></think>`, found("x", true)),
		Entry("wrong nonce", `<ai-agent-xyz-FINAL>x</ai-agent-xyz-FINAL>`, none),
		Entry("wrong nonce then right", `<ai-agent-xyz-FINAL>a</ai-agent-xyz-FINAL><ai-agent-abc-FINAL>b</ai-agent-abc-FINAL>`, found("b", true)),
		Entry("nonce is a prefix of another", `<ai-agent-abcd-FINAL>x</ai-agent-abcd-FINAL>`, none),
		Entry("nonce is a suffix of another", `<ai-agent-zabc-FINAL>x</ai-agent-zabc-FINAL>`, none),
		Entry("first wrapper wins", `<ai-agent-abc-FINAL>1</ai-agent-abc-FINAL><ai-agent-abc-FINAL>2</ai-agent-abc-FINAL>`, found("1", true)),
		Entry("nested wrapper is content up to the first close", `<ai-agent-abc-FINAL>a<ai-agent-abc-FINAL>b</ai-agent-abc-FINAL>c</ai-agent-abc-FINAL>`, found("a<ai-agent-abc-FINAL>b", true)),
		Entry("-FINALIZE is not -FINAL", `<ai-agent-abc-FINALIZE>x</ai-agent-abc-FINALIZE>`, none),
		Entry("-FINALIZE skipped, -FINAL found", `<ai-agent-abc-FINALIZE>x<ai-agent-abc-FINAL>y`, found("y", false)),
		Entry("case-sensitive tag", `<ai-agent-abc-final>x</ai-agent-abc-final>`, none),
		Entry("incomplete opening tag", `<ai-agent-abc-FINAL format="text"`, none),
		Entry("opening tag cut after FINAL", `<ai-agent-abc-FINAL`, none),
		Entry("empty wrapper", `<ai-agent-abc-FINAL format="text"></ai-agent-abc-FINAL>`, found("", true)),
		Entry("white-space wrapper", "<ai-agent-abc-FINAL>\n \t\n</ai-agent-abc-FINAL>", found("", true)),
		Entry("unclosed empty", `<ai-agent-abc-FINAL>`, found("", false)),
		Entry("NO RELEVANT DATA FOUND is success", "<ai-agent-abc-FINAL>NO RELEVANT DATA FOUND\nonly INFO lines</ai-agent-abc-FINAL>", found("NO RELEVANT DATA FOUND\nonly INFO lines", true)),
		Entry("text around", "Here you go:\n<ai-agent-abc-FINAL>x</ai-agent-abc-FINAL>\nBye", found("x", true)),
		Entry("CRLF trimmed", "<ai-agent-abc-FINAL>\r\nx\r\ny\r\n</ai-agent-abc-FINAL>", found("x\r\ny", true)),
		Entry("unicode kept", "<ai-agent-abc-FINAL>東京 😀</ai-agent-abc-FINAL>", found("東京 😀", true)),
		Entry("other nonce's closing tag is content", `<ai-agent-abc-FINAL>a</ai-agent-x-FINAL>b</ai-agent-abc-FINAL>`, found("a</ai-agent-x-FINAL>b", true)),
		Entry("empty text", "", none),
		Entry("no wrapper", "just text", none),
	)

	DescribeTable("rejects a bad nonce",
		func(nonce, msg string) {
			_, err := finalreport.Parse("<ai-agent-x-FINAL>y", nonce)
			Expect(err).To(MatchError(finalreport.ErrNonce))
			Expect(err).To(MatchError(msg))
		},
		Entry("empty", "", "finalreport: invalid nonce: empty"),
		Entry("space", "a b", `finalreport: invalid nonce: "a b" has ' ' at byte 1 (want letters, digits, '_', '-')`),
		Entry("tag character", "a>", `finalreport: invalid nonce: "a>" has '>' at byte 1 (want letters, digits, '_', '-')`),
	)

	It("round-trips Wrap for any content", func() {
		rng := rand.New(rand.NewPCG(5, 8))
		alphabet := []rune("ab <>/-\n\t FINAL ai-agent 東😀")
		for range 2000 {
			var b strings.Builder
			for range rng.IntN(60) {
				b.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
			content := b.String()
			rep, err := finalreport.Parse(finalreport.Wrap("n1", content), "n1")
			Expect(err).NotTo(HaveOccurred())
			want := content
			if i := strings.Index(content, finalreport.Close("n1")); i >= 0 {
				want = content[:i]
			}
			Expect(rep).To(Equal(found(strings.TrimSpace(want), true)), "%q", content)
		}
	})
})
