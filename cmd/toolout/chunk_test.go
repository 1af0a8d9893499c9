package main

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout chunk", func() {
	It("prints a balanced plan", func() {
		doc := strings.Repeat("ts=1 host=web-0 level=INFO msg=\"all good here\"\n", 300)
		code, stdout, stderr := invoke(doc, "chunk", "--budget", "1000")
		Expect(stderr).To(BeEmpty())
		Expect(code).To(Equal(0))
		var plan struct {
			Tokens, Budget, Overlap int
			Chunks                  []struct{ Index, Start, End, Tokens int }
		}
		Expect(json.Unmarshal([]byte(stdout), &plan)).To(Succeed())
		Expect(plan.Budget).To(Equal(1000))
		Expect(plan.Overlap).To(Equal(100))
		Expect(len(plan.Chunks)).To(BeNumerically(">=", 2))
		Expect(plan.Chunks[len(plan.Chunks)-1].End).To(Equal(len(doc)))
	})

	It("prints an empty list of chunks for empty input, not null", func() {
		code, stdout, stderr := invoke("", "chunk", "--budget", "10")
		Expect(stderr).To(BeEmpty())
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"tokens":0,"budget":10,"overlap":1,"target":0,"chunks":[]}` + "\n"))
	})

	DescribeTable("rejects bad input in one line",
		func(stdin string, args []string, want string) {
			code, _, stderr := invoke(stdin, append([]string{"chunk"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stderr).To(Equal(want))
		},
		Entry("no budget", "x", []string{}, "toolout chunk: --budget is required (a positive number of tokens)\n"),
		Entry("overlap of half", "x", []string{"--budget", "10", "--overlap", "50"}, "toolout chunk: <stdin>: chunk: overlap 0.5: overlap must be at least 0 and below 0.5\n"),
		Entry("piece over budget", strings.Repeat("a", 300), []string{"--budget", "3"}, "toolout chunk: <stdin>: chunk: piece at bytes 0-300 has 38 tokens, budget 3: a piece is larger than the budget\n"),
	)
})
