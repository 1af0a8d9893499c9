package components

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	gm "github.com/onsi/gomega" // not dot-imported: gomega's Default is this package's

	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/harness"
)

var _ = Describe("the leaked component's stream check", func() {
	It("streams the input whole, in deltas of 1, 2, 3, 7 and 64 bytes and in a random split seeded by the input", func() {
		text := strings.Repeat("<tool_call>{\"name\": \"a\"}</tool_call> and text ", 10)
		splits := streamSplits(text)
		gm.Expect(splits[:6]).To(gm.Equal([][]int{nil, {1}, {2}, {3}, {7}, {64}}))
		gm.Expect(splits).To(gm.HaveLen(7))
		total := 0
		for _, k := range splits[6] {
			gm.Expect(k).To(gm.BeNumerically(">=", 1))
			total += k
		}
		gm.Expect(total).To(gm.BeNumerically(">=", len(text)))
		gm.Expect(streamSplits(text)[6]).To(gm.Equal(splits[6]), "deterministic")
	})

	It("reports a stream mismatch for each split where the stream differs from Extract", func() {
		check := func(text string, sizes []int, opts leaked.Options) error {
			if len(sizes) == 1 && sizes[0] < 3 {
				return errors.New("leaked: stream: the result differs")
			}
			return leaked.CheckStream(text, sizes, opts)
		}
		got := streamMismatches(`x <tools>{"name": "a"}</tools>`, leaked.Options{}, check)
		gm.Expect(got).To(gm.Equal([]harness.Mismatch{
			{Field: "stream", Msg: "deltas of 1 bytes: leaked: stream: the result differs"},
			{Field: "stream", Msg: "deltas of 2 bytes: leaked: stream: the result differs"},
		}))
		gm.Expect(streamMismatches(`x <tools>{"name": "a"}</tools>`, leaked.Options{}, leaked.CheckStream)).To(gm.BeEmpty())
	})
})
