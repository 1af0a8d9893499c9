package leaked_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

var _ = Describe("Code and thinking are not scanned", func() {
	DescribeTable("the call after the example",
		func(in string, calls int) {
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
			checkProperties(in, r)
			Expect(r.Calls).To(HaveLen(calls))
		},
		Entry("an unclosed <think> hides the rest", `<think> <tools>{"name": "a"}</tools>`, 0),
		Entry("</think> closes case-insensitively", `<THINK>x</Think> <tools>{"name": "a"}</tools>`, 1),
		Entry("a ~~~ fence is not closed by ```", "~~~\n```\n<tools>{\"name\": \"a\"}</tools>", 0),
		Entry("a fence is closed by a longer run", "```\nx\n`````\n<tools>{\"name\": \"a\"}</tools>", 1),
		Entry("a fence is not closed by a shorter run", "````\nx\n```\n<tools>{\"name\": \"a\"}</tools>", 0),
		Entry("a fence is not closed by a run with text after it", "```\nx\n```json\n<tools>{\"name\": \"a\"}</tools>", 0),
		Entry("an indented fence of up to three spaces", "   ```\n<tools>{\"name\": \"a\"}</tools>\n```\n<tools>{\"name\": \"b\"}</tools>", 1),
		Entry("four spaces are not a fence", "    ```\n<tools>{\"name\": \"a\"}</tools>", 1),
		Entry("inline code does not span lines", "`x\n<tools>{\"name\": \"a\"}</tools> `", 1),
		Entry("inline code spans pair runs of equal length", "`` ` <tools>{\"name\": \"a\"}</tools> ``", 0),
		Entry("an unpaired run is text", "``` <tools>{\"name\": \"a\"}</tools> ``", 1),
	)

	It("scans fences on request", func() {
		in := "```\n<tools>{\"name\": \"a\"}</tools>\n```"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs(), ScanFences: true})
		Expect(r.Calls).To(HaveLen(1))
	})
})
