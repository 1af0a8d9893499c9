package leaked_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// extract37 runs Extract with deterministic IDs and checks the contract.
func extract37(in string) leaked.Result {
	GinkgoHelper()
	r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
	checkProperties(in, r)
	return r
}

var _ = Describe("Issue 37: dropped raw is the removed text", func() {
	DescribeTable("raw is the whole span removed at the offset, tags included",
		func(in, raw string) {
			r := extract37(in)
			Expect(r.Dropped).NotTo(BeEmpty())
			for _, d := range r.Dropped {
				Expect(d.Raw).To(Equal(raw))
				Expect(in[d.Offset:]).To(HavePrefix(d.Raw))
			}
		},
		Entry("a value beside a call", `Go <tool_call>[{"name": "ls"}, {"path": "/tmp"}]</tool_call> now`,
			`<tool_call>[{"name": "ls"}, {"path": "/tmp"}]</tool_call>`),
		Entry("broken arguments beside a call", "<tools>{\"name\": \"a\"}\n{\"name\": \"b\", \"arguments\": 3}</tools>",
			"<tools>{\"name\": \"a\"}\n{\"name\": \"b\", \"arguments\": 3}</tools>"),
		Entry("a repaired broken call", `<function_call>{"name": "b", "arguments": [1,],}</function_call> then`,
			`<function_call>{"name": "b", "arguments": [1,],}</function_call>`),
	)
})
