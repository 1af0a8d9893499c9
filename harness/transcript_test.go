package harness_test

import (
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness"
)

func call(seq int, site string, chunk, chunks, turn int) fakes.Call {
	return fakes.Call{Seq: seq, Request: core.Request{Tag: core.Tag{Site: site, Chunk: chunk, Chunks: chunks, Turn: turn}}}
}

var _ = Describe("transcript order", func() {
	It("keeps arrival order but sorts each run of one site and turn by chunk", func() {
		got := harness.OrderCalls([]fakes.Call{
			call(1, "session.turn", 0, 0, 1),
			call(2, "extract.map", 3, 3, 0),
			call(3, "extract.map", 1, 3, 0),
			call(4, "extract.map", 2, 3, 0),
			call(5, "extract.reduce", 0, 0, 0),
			call(6, "session.turn", 0, 0, 2),
		})
		var tags []string
		for _, c := range got {
			tags = append(tags, c.Request.Tag.String())
		}
		want := []string{"session.turn turn=1", "extract.map chunk=1/3", "extract.map chunk=2/3", "extract.map chunk=3/3", "extract.reduce", "session.turn turn=2"}
		Expect(cmp.Diff(want, tags)).To(BeEmpty())
	})

	It("renders every body with a trailing newline and quotes a body that holds a txtar marker", func() {
		t := harness.Transcript{Header: []string{"scenario: x"}, Sections: []harness.Section{
			{Name: "a", Body: "no newline"},
			{Name: "b", Body: "-- looks like a marker --\nok\n"},
			{Name: "c", Body: ""},
			{Name: "d", Body: "\xff\n-- m --"},
		}}
		out := t.Bytes()
		Expect(string(out)).To(Equal("scenario: x\n-- a --\nno newline\n-- b (quoted) --\n>-- looks like a marker --\n>ok\n-- c --\n" +
			"-- d (quoted) --\n>\xff\n>-- m --\n"))
		// The archive reads back as the same sections, quoted ones unquoted.
		a := txtar.Parse(out)
		Expect(a.Files).To(HaveLen(4))
		for i, want := range []string{"no newline\n", "-- looks like a marker --\nok\n", "", "\xff\n-- m --\n"} {
			data := a.Files[i].Data
			if strings.HasSuffix(a.Files[i].Name, " (quoted)") {
				var err error
				data, err = txtar.Unquote(data)
				Expect(err).NotTo(HaveOccurred())
			}
			Expect(string(data)).To(Equal(want))
		}
	})
})
