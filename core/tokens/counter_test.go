package tokens_test

import (
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/tokens"
)

var _ = Describe("Counter", func() {
	for _, name := range tokens.Names() {
		tk := tokens.MustNew(name)

		It(name+": counts the samples as Count does, written whole, byte by byte, or in random parts", func() {
			rng := rand.New(rand.NewPCG(15, 1))
			for _, text := range append(append([]string{}, samples...), invalidSamples...) {
				want := tk.Count(text)
				Expect(countInParts(tk, text, nil)).To(Equal(want), "whole %q", text)
				every := make([]int, len(text))
				for i := range every {
					every[i] = i
				}
				Expect(countInParts(tk, text, every)).To(Equal(want), "byte by byte %q", text)
				Expect(countInParts(tk, text, randomCuts(rng, len(text), 5))).To(Equal(want), "in parts %q", text)
			}
		})

		It(name+": counts random text rich in line breaks as Count does", func() {
			rng := rand.New(rand.NewPCG(15, 2))
			for range 3000 {
				text := randomCounterText(rng, 1+rng.IntN(60))
				Expect(countInParts(tk, text, randomCuts(rng, len(text), rng.IntN(8)))).To(Equal(tk.Count(text)), "%q", text)
			}
		})

		It(name+": holds only the text since the last cut of a log", func() {
			line := "2026-11-03T10:00:01Z host=web-0 level=ERROR msg=\"upstream timeout\"\n"
			c := tk.NewCounter()
			for range 10_000 {
				_, _ = c.Write([]byte(line))
			}
			Expect(c.Tokens()).To(Equal(tk.Count(strings.Repeat(line, 10_000))))
			_, _ = c.Write([]byte("tail"))
			Expect(c.Tokens()).To(Equal(tk.Count(strings.Repeat(line, 10_000) + "tail")))
		})
	}

	It("counts nothing for nothing", func() {
		c := tokens.MustNew(tokens.CL100K).NewCounter()
		n, err := c.Write(nil)
		Expect(n, err).To(Equal(0))
		Expect(c.Tokens()).To(Equal(0))
	})
})
