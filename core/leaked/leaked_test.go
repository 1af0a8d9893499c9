package leaked_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/leaked"
)

// seqIDs returns Sources whose ids are id-1, id-2, ...
func seqIDs() core.Sources {
	n := 0
	return core.Sources{NewID: func() string { n++; return fmt.Sprintf("id-%d", n) }}
}

// checkProperties asserts what must hold for every input.
func checkProperties(input string, r leaked.Result) {
	GinkgoHelper()
	Expect(leaked.Check(input, r)).To(Succeed())
	again := leaked.Extract(input, leaked.Options{Sources: seqIDs()})
	first := leaked.Extract(input, leaked.Options{Sources: seqIDs()})
	Expect(again).To(Equal(first), "deterministic")
}

var _ = Describe("Extract", func() {
	DescribeTable("keeps the properties on every scenario input",
		func(v vector) {
			checkProperties(v.Input, leaked.Extract(v.Input, v.options()))
		},
		vectorEntries(),
	)

	It("numbers calls in document order from Sources", func() {
		r := leaked.Extract(`<tools>[{"name":"a"},{"name":"b"}]</tools><tool_call>{"name":"c"}</tool_call>`, leaked.Options{Sources: seqIDs()})
		Expect([]string{r.Calls[0].ID, r.Calls[1].ID, r.Calls[2].ID}).To(Equal([]string{"id-1", "id-2", "id-3"}))
	})

	It("uses random UUIDs by default", func() {
		r := leaked.Extract(`<tools>{"name":"a"}</tools>`, leaked.Options{})
		Expect(r.Calls[0].ID).To(MatchRegexp(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`))
	})

	It("reports byte offsets of dropped blocks and repairs", func() {
		in := `ok <tools>{"name": "a",}</tools> <tools>{nope}</tools>`
		r := leaked.Extract(in, leaked.Options{})
		Expect(r.Repairs).To(Equal([]leaked.Repair{{Pattern: "<tools>", Offset: 3, Kind: leaked.RepairTrailingComma}}))
		Expect(r.Dropped).To(HaveLen(1))
		Expect(in[r.Dropped[0].Offset:]).To(HavePrefix("<tools>{nope"))
		Expect(r.Dropped[0].Raw).To(Equal("<tools>{nope}</tools>"))
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: 3, Length: 29}, {Offset: 33, Length: 21}}))
	})

	It("renders JSON with empty lists and null content", func() {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		Expect(enc.Encode(leaked.Extract(`<tools>{"name":"a","arguments":{"s":"<b>"}}</tools>`, leaked.Options{Sources: seqIDs()}))).To(Succeed())
		Expect(b.String()).To(Equal(`{"content":null,"tool_calls":[{"id":"id-1","name":"a","arguments":{"s":"<b>"}}],"patterns":["<tools>"],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("keeps the properties on random mixtures of text, tags and JSON", func() {
		rng := rand.New(rand.NewPCG(11, 13))
		parts := []string{"<tools>", "</tools>", "<tool_call>", "</tool_call>", "<tool_calls>", "</tool_calls>", "<function ", ">", "{", "}", "[", "]", `"`, `\`, ",", ":",
			`"name"`, `"a"`, `"arguments"`, `{"name":"x"}`, `{"name":""}`, "```", "`", "~~~", "<think>", "</think>", "\n", " ", "text", "é", "<tool_call_result>",
			"<function=f>", "</function>", "<parameter=p>", "</parameter>", `<invoke name="i">`, "</invoke>", `<parameter name="q">`, "<minimax:tool_call>", "</minimax:tool_call>", "1", "true"}
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(25) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			in := b.String()
			checkProperties(in, leaked.Extract(in, leaked.Options{Sources: seqIDs()}))
		}
	})
})

func vectorEntries() []TableEntry {
	var out []TableEntry
	for _, v := range vectors() {
		out = append(out, Entry(v.Name, v))
	}
	return out
}
