package tokens_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
)

// harmonyCase is a line of testdata/o200k-harmony/cases.jsonl.
type harmonyCase struct {
	Text string `json:"text"`
	IDs  []int  `json:"ids"`
}

func harmonyCases() []harmonyCase {
	GinkgoHelper()
	f, err := os.Open("testdata/o200k-harmony/cases.jsonl")
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var cases []harmonyCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c harmonyCase
		Expect(json.Unmarshal(sc.Bytes(), &c)).To(Succeed())
		cases = append(cases, c)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return cases
}

var _ = Describe("o200k_harmony", func() {
	tk := tokens.MustNew(tokens.O200KHarmony)

	It("encodes every special token of the reference table as its one id", func() {
		specials := refSpecials()
		Expect(specials).To(HaveLen(1091))
		for text, id := range specials {
			Expect(tk.Encode(nil, text)).To(Equal([]int{id}), text)
			Expect(tk.Count(text)).To(Equal(1), text)
		}
	})

	It("gives the reference's ids for a Harmony conversation, the edges and plain text", func() {
		for _, c := range harmonyCases() {
			ids := tk.Encode(nil, c.Text)
			if len(c.IDs) == 0 {
				Expect(ids).To(BeEmpty(), "%q", c.Text)
			} else {
				Expect(ids).To(Equal(c.IDs), "%q", c.Text)
			}
			Expect(tk.Count(c.Text)).To(Equal(len(c.IDs)), "%q", c.Text)
			Expect(tokens.Check(tk, c.Text)).To(Succeed())
		}
	})

	It("counts text with no special token as o200k_base does, with the same ids", func() {
		base := tokens.MustNew(tokens.O200K)
		for _, s := range samples {
			if strings.Contains(s, "<|") {
				continue
			}
			Expect(tk.Encode(nil, s)).To(Equal(base.Encode(nil, s)), "%q", s)
		}
	})

	It("marks special tokens as pieces of one token, and splits the text between them on its own", func() {
		s := "a  <|end|>  b"
		Expect(tk.Pieces(nil, s)).To(Equal([]core.Piece{{Start: 0, End: 1, Tokens: 1}, {Start: 1, End: 3, Tokens: 1},
			{Start: 3, End: 10, Tokens: 1}, {Start: 10, End: 11, Tokens: 1}, {Start: 11, End: 13, Tokens: 1}}))
	})
})
