package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout leaked", func() {
	It("extracts the issue's example with sequential ids", func() {
		code, stdout, stderr := invoke("Checking.\n<tools>{\"name\":\"a\",\"arguments\":{\"s\":\"</tools>\"}}</tools>", "leaked", "--ids", "seq")
		Expect(stderr).To(BeEmpty())
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"Checking.","tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"a","arguments":{"s":"</tools>"}}],"patterns":["<tools>"],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("gives back input without a wrapper byte for byte", func() {
		code, stdout, _ := invoke("\n  plain text, no calls  \n", "leaked")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"\n  plain text, no calls  \n","tool_calls":[],"patterns":[],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("keeps an opening tag in prose byte for byte (issue 13)", func() {
		code, stdout, _ := invoke("Use the <tools> syntax to call tools.", "leaked")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"Use the <tools> syntax to call tools.","tool_calls":[],"patterns":[],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("recovers Qwen3-Coder calls whose <tool_call> opener was stripped", func() {
		code, stdout, _ := invoke("<function=logs__query>\n<parameter=limit>\n50\n</parameter>\n</function>\n</tool_call>", "leaked", "--ids", "seq")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":null,"tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"logs__query","arguments":{"limit":50}}],"patterns":["<function=>"],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("reads a file and scans fences on request", func() {
		code, stdout, _ := invoke("", "leaked", "--scan-fences", "--ids=seq", "../../scenarios/leaked/trace-tools.txt")
		Expect(code).To(Equal(0))
		Expect(stdout).To(ContainSubstring(`"name":"bigquery__execute_sql"`))
		Expect(stdout).To(HavePrefix(`{"content":null,`))
	})

	It("rejects a bad --ids", func() {
		code, _, stderr := invoke("", "leaked", "--ids", "counter")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout leaked: --ids \"counter\": want uuid or seq\n"))
	})
})
