package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// feed writes each delta to st and returns the text events joined, the
// names of the call events, and the events' kinds in order ("text",
// "call").
func feed(st *leaked.Stream, deltas ...string) (text string, calls []string, kinds []string) {
	var b strings.Builder
	take := func(ev []leaked.Event) {
		for _, e := range ev {
			if e.Call != nil {
				calls = append(calls, e.Call.ID+" "+e.Call.Name+" "+string(e.Call.Arguments))
				kinds = append(kinds, "call")
				continue
			}
			Expect(e.Text).NotTo(BeEmpty(), "no empty text event")
			b.WriteString(e.Text)
			kinds = append(kinds, "text")
		}
	}
	for _, d := range deltas {
		take(st.Write(d))
	}
	return b.String(), calls, kinds
}

var _ = Describe("Stream", func() {
	DescribeTable("equals Extract over splits of 1, 2, 3, 7 and 64 bytes on every scenario input",
		func(v vector) {
			for _, size := range []int{1, 2, 3, 7, 64} {
				Expect(leaked.CheckStream(v.Input, []int{size}, v.options())).To(Succeed(), "deltas of %d bytes", size)
			}
		},
		vectorEntries(),
	)

	It("emits text with nothing that may start a block at once", func() {
		st := leaked.NewStream(leaked.Options{})
		text, _, _ := feed(st, "Hello, world. ", "The logs say: all good.\n")
		Expect(text).To(Equal("Hello, world. The logs say: all good.\n"))
	})

	It("emits a '<' at once when no tag of ours can start there", func() {
		st := leaked.NewStream(leaked.Options{})
		text, _, _ := feed(st, "Use <span>bold</span> or <img src=x> and <i>it</i>", " <tool")
		Expect(text).To(Equal("Use <span>bold</span> or <img src=x> and <i>it</i> "))
	})

	It("holds back only a suffix that may start a needle, and emits it once it cannot", func() {
		st := leaked.NewStream(leaked.Options{})
		text, _, _ := feed(st, "Call it with to=fun")
		Expect(text).To(Equal("Call it with "))
		text, _, _ = feed(st, "ny results.")
		Expect(text).To(Equal("to=funny results."))
	})

	It("holds an opening tag until its block is decided, then emits the call before the text after it", func() {
		st := leaked.NewStream(leaked.Options{Sources: seqIDs()})
		text, calls, _ := feed(st, "Checking.\n<tool_", `call>{"name": "logs", "arguments": {"since": "1h"}}`)
		Expect(text).To(Equal("Checking.\n"))
		Expect(calls).To(BeEmpty())
		text, calls, kinds := feed(st, "</tool_call>\n", strings.Repeat("Then I wait for the answer. ", 4))
		Expect(calls).To(Equal([]string{`id-1 logs {"since":"1h"}`}))
		Expect(kinds[0]).To(Equal("call"))
		Expect(text).To(HavePrefix("\nThen I wait"))
		ev, r := st.Close()
		Expect(ev).To(BeEmpty())
		Expect(r.Calls).To(HaveLen(1))
		Expect(*r.Content).To(Equal("Checking.\n\n" + strings.TrimSpace(strings.Repeat("Then I wait for the answer. ", 4))))
	})

	It("emits the thinking and a fenced block as they come, even unclosed", func() {
		st := leaked.NewStream(leaked.Options{})
		text, _, _ := feed(st, "<think>I could call <tool_call>{\"name\": \"a\"", " but not yet")
		Expect(text).To(Equal("<think>I could call <tool_call>{\"name\": \"a\" but not yet"))
		text, _, _ = feed(st, "</think>ok\n```\n<tool_call>{\"name\": \"b\"}", "</tool_call>")
		Expect(text).To(Equal("</think>ok\n```\n<tool_call>{\"name\": \"b\"}</tool_call>"))
	})

	It("emits a fenced block's text while a line that may close it goes on", func() {
		// Found by FuzzStream: the retry of the line was put off, and the
		// text with it.
		Expect(leaked.CheckStream("0\n```\n```000000", []int{2, 7, 5, 7}, leaked.Options{})).To(Succeed())
		st := leaked.NewStream(leaked.Options{})
		text, _, _ := feed(st, "```\n", "```", "0000", "00", "0")
		Expect(text).To(Equal("```\n```0000000"))
	})

	It("emits white space at the start once a byte that starts no block follows", func() {
		// Found by FuzzStream: eight spaces made the first step wait, and
		// the '0' after them was put off by the retry rule, held with them.
		for _, opts := range []leaked.Options{{}, {Pythonic: true}} {
			Expect(leaked.CheckStream("        0", []int{8, 5}, opts)).To(Succeed())
			st := leaked.NewStream(opts)
			text, _, _ := feed(st, "        ", "0")
			Expect(text).To(Equal("        0"))
		}
	})

	It("keeps an unclosed wrapper's text back until Close decides it", func() {
		st := leaked.NewStream(leaked.Options{Sources: seqIDs()})
		text, _, _ := feed(st, `Run <tool_call>{"name": "a", "arguments": {`, strings.Repeat(`"k": 1, `, 20))
		Expect(text).To(Equal("Run "))
		ev, r := st.Close()
		Expect(ev).To(Equal([]leaked.Event{{Text: `<tool_call>{"name": "a", "arguments": {` + strings.Repeat(`"k": 1, `, 20)}}),
			"JSON cut off by the end, unclosed: the text stays")
		Expect(r.Dropped).To(BeEmpty())
		Expect(r.Removed).To(BeEmpty())
	})

	It("holds a container's opening tag, which a block inside it removes", func() {
		st := leaked.NewStream(leaked.Options{Sources: seqIDs()})
		in := "<tool_calls>\n<tool_call>{\"name\":\"a\"}</tool_call>\n<tool_call>{\"name\":\"b\"}</tool_call>\n</tool_calls>\nDone, waiting for both results now."
		text, calls, _ := feed(st, strings.Split(in, "")...)
		Expect(text).To(BeEmpty(), "the container's tag is held")
		ev, r := st.Close()
		for _, e := range ev {
			if e.Call != nil {
				calls = append(calls, e.Call.ID+" "+e.Call.Name+" "+string(e.Call.Arguments))
			}
			text += e.Text
		}
		Expect(calls).To(Equal([]string{"id-1 a {}", "id-2 b {}"}))
		Expect(text).To(Equal("\n\nDone, waiting for both results now."), "the white space between sibling blocks stays")
		Expect(*r.Content).To(Equal("Done, waiting for both results now."))
	})

	It("draws the calls' IDs in document order, as Extract does", func() {
		in := `<tools>[{"name":"a"},{"name":"b"}]</tools><tool_call>{"name":"c"}</tool_call>`
		st := leaked.NewStream(leaked.Options{Sources: seqIDs()})
		_, calls, _ := feed(st, in[:20], in[20:])
		ev, r := st.Close()
		for _, e := range ev {
			if e.Call != nil {
				calls = append(calls, e.Call.ID+" "+e.Call.Name+" "+string(e.Call.Arguments))
			}
		}
		Expect(calls).To(Equal([]string{"id-1 a {}", "id-2 b {}", "id-3 c {}"}))
		Expect(r).To(Equal(leaked.Extract(in, leaked.Options{Sources: seqIDs()})))
	})

	It("comes back byte-identical when nothing is removed, over any split", func() {
		in := "  Use the <tools> syntax, `<tool_call>` and a < b.  "
		Expect(leaked.CheckStream(in, []int{1}, leaked.Options{})).To(Succeed())
		st := leaked.NewStream(leaked.Options{})
		text, _, _ := feed(st, in)
		ev, r := st.Close()
		for _, e := range ev {
			text += e.Text
		}
		Expect(text).To(Equal(in))
		Expect(*r.Content).To(Equal(in))
	})

	It("waits for a JSON array whose first '{' comes after more white space than the margin", func() {
		// The Llama and bare-JSON handlers read the white space with the
		// plain jsonStart, which the stream did not see: the step was kept
		// before its '{' came, and its text was emitted.
		for _, in := range streamSeeds {
			for _, size := range []int{1, 20, 50} {
				Expect(leaked.CheckStream(in, []int{size}, leaked.Options{})).To(Succeed(), "%q in deltas of %d", in, size)
			}
		}
	})

	It("refuses a Write after Close", func() {
		st := leaked.NewStream(leaked.Options{})
		st.Close()
		Expect(func() { st.Write("x") }).To(PanicWith("leaked: Stream.Write after Close"))
	})
})
