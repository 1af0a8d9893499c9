package importer_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

var _ = Describe("Import's payload files", func() {
	msg := func(role, text string, extra ...string) string {
		b, _ := json.Marshal(text)
		return `{"role": "` + role + `", "content": ` + string(b) + strings.Join(extra, "") + `}`
	}
	call := `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}`
	trace := func(system, user string) string {
		return "[" + strings.Join([]string{msg("system", system), msg("user", user), call,
			msg("tool", strings.Repeat("row\n", 4000), `, "tool_call_id": "c1"`), msg("assistant", "done")}, ",\n") + "]"
	}
	o := importer.ImportOptions{Dir: "out", Name: "x", TraceName: "t.json", At: -1}

	It("writes a system prompt and a user message over PayloadBytes beside the scenario, as tool results are", func() {
		system, user := strings.Repeat("You are an agent. ", 300), "Count the rows. "+strings.Repeat("Context line. ", 400)
		Expect(len(system)).To(BeNumerically(">", importer.PayloadBytes))
		Expect(len(user)).To(BeNumerically(">", importer.PayloadBytes))
		files := mustImport(trace(system, user), o)
		byPath := map[string]string{}
		for _, f := range files {
			byPath[f.Path] = string(f.Data)
		}
		Expect(byPath).To(HaveLen(4))
		Expect(byPath).To(HaveKey("out/x.msg3.txt"))
		Expect(byPath["out/x.system.txt"] == system).To(BeTrue(), "x.system.txt holds the system prompt")
		Expect(byPath["out/x.msg1.txt"] == user).To(BeTrue(), "x.msg1.txt holds the user message")
		sc := byPath["out/x.yaml"]
		Expect(sc).To(ContainSubstring("input:\n  user:\n    file: x.msg1.txt\n  system:\n    file: x.system.txt\n"))
		Expect(len(sc)).To(BeNumerically("<", 3*importer.PayloadBytes))
		// The extraction's question quotes the user's message: cut, so that
		// the scenario stays small.
		Expect(sc).NotTo(ContainSubstring(strings.Repeat("Context line. ", 300)))
	})

	It("keeps texts of PayloadBytes or less inline", func() {
		files := mustImport(trace("Be brief.", "Count the rows."), o)
		Expect(files).To(HaveLen(2)) // the scenario and the tool result's file
		Expect(string(scenarioOf(files))).To(ContainSubstring("input:\n  user: Count the rows.\n  system: Be brief.\n"))
	})
})
