package importer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/importer"
)

// Traces of every shape an agent produces, imported at each point and run:
// an imported scenario must pass on its first run, whatever the shape.
var _ = Describe("Import, then run", func() {
	msg := func(role, content string, extra ...any) map[string]any {
		m := map[string]any{"role": role, "content": content}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i].(string)] = extra[i+1]
		}
		return m
	}
	native := func(id, name, args string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
	}
	// logs is a log of about size bytes with one error line in the middle.
	logs := func(size int) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "2026-11-20T10:%02d:%02dZ INFO checkout-api request id=%06d status=200 latency_ms=%d\n", i/60%60, i%60, i, 10+i%90)
			if i == 700 {
				b.WriteString("2026-11-20T10:11:40Z ERROR checkout-api payment gateway timeout order=A-99812\n")
			}
		}
		return b.String()
	}
	answer := msg("assistant", "Order A-99812 failed: the payment gateway timed out.")
	leak := func(calls ...string) map[string]any {
		return msg("assistant", "Let me look.\n"+strings.Join(calls, "\n"))
	}
	toolCall := func(name, args string) string {
		return fmt.Sprintf(`<tool_call>{"name": %q, "arguments": %s}</tool_call>`, name, args)
	}
	start := []map[string]any{msg("system", "You are an SRE assistant."), msg("user", "Why did order A-99812 fail?")}

	// importRun imports trace at cut into a fresh folder, runs every
	// scenario it wrote, and returns the session scenario's text.
	importRun := func(trace []map[string]any, at int) string {
		data, err := json.MarshalIndent(trace, "", " ")
		Expect(err).NotTo(HaveOccurred())
		dir := filepath.Join(GinkgoT().TempDir(), "scenarios", "regress")
		opts := importer.ImportOptions{Dir: dir, Name: "t", TraceName: "t.json", At: at}
		files, err := importer.Import(data, opts)
		Expect(err).NotTo(HaveOccurred())
		again, err := importer.Import(data, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(files), "importing again gives the same bytes")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		for _, f := range files {
			Expect(os.WriteFile(f.Path, f.Data, 0o644)).To(Succeed())
		}
		runner := &harness.Runner{Registry: components.Default()}
		for _, f := range files {
			if filepath.Ext(f.Path) != ".yaml" {
				continue
			}
			sc, err := runner.Load(f.Path)
			Expect(err).NotTo(HaveOccurred())
			res := runner.Execute(context.Background(), sc)
			Expect(res.Failures).To(BeEmpty(), "%s:\n%s\n%s", f.Path, f.Data, res.Transcript)
		}
		for _, f := range files {
			if filepath.Base(f.Path) == "t.yaml" {
				return string(f.Data)
			}
		}
		Fail("no session scenario among " + fmt.Sprint(len(files)) + " files")
		return ""
	}

	It("native calls, the result oversized", func() {
		trace := append(start,
			msg("assistant", "", "tool_calls", []any{native("c1", "logs__query", `{"service":"checkout-api"}`)}),
			msg("tool", logs(40_000), "tool_call_id", "c1", "name", "logs__query"), answer)
		Expect(importRun(trace, 3)).To(ContainSubstring("HANDLE 00000000-0000-4000-8000-000000000002"))
	})

	It("a leaked call and its result, small", func() {
		trace := append(start, leak(toolCall("logs__query", `{"service": "checkout-api"}`)),
			msg("tool", "ERROR payment gateway timeout order=A-99812", "tool_call_id", "call_leaked_1", "name", "logs__query"), answer)
		sc := importRun(trace, 2)
		Expect(sc).To(ContainSubstring("ERROR payment gateway timeout"), "the result recorded after the cut answers the call")
		Expect(sc).NotTo(ContainSubstring("no result for"))
	})

	It("a leaked call, then its 205 KB result: at the leak and at the result", func() {
		trace := append(start, leak(toolCall("logs__query", `{"service": "checkout-api", "since": "2026-11-20T10:00:00Z"}`)),
			msg("tool", logs(205_000), "tool_call_id", "call_leaked_1", "name", "logs__query"), answer)
		importRun(trace, 2)
		// The recovered call takes the second ID, so the store hands out the third.
		Expect(importRun(trace, 3)).To(ContainSubstring("HANDLE 00000000-0000-4000-8000-000000000003"))
	})

	It("several leaked calls in one message, their results out of order and paired by name", func() {
		trace := append(start, leak(toolCall("logs__query", `{"q": "errors"}`), toolCall("orders__get", `{"id": "A-99812"}`)),
			msg("tool", "order A-99812: status=failed", "tool_call_id", "x2", "name", "orders__get"),
			msg("tool", logs(30_000), "tool_call_id", "x1", "name", "logs__query"), answer)
		sc := importRun(trace, 2)
		Expect(sc).To(ContainSubstring("order A-99812: status=failed"))
		importRun(trace, 4)
	})

	It("leaked results without names, paired by position", func() {
		trace := append(start, leak(toolCall("logs__query", `{"q": "errors"}`), toolCall("orders__get", `{"id": "A-99812"}`)),
			msg("tool", logs(30_000), "tool_call_id", "x1"),
			msg("tool", "order A-99812: status=failed", "tool_call_id", "x2"), answer)
		importRun(trace, 3)
		Expect(importRun(trace, 2)).To(MatchRegexp(`name: orders__get\s+outputs:\s+- 'order A-99812: status=failed'`))
	})

	It("an earlier oversized result and a leaked call before the cut take their IDs first", func() {
		trace := append(start,
			msg("assistant", "", "tool_calls", []any{native("c1", "logs__query", `{"day":"19"}`)}),
			msg("tool", logs(20_000), "tool_call_id", "c1", "name", "logs__query"),
			leak(toolCall("logs__query", `{"day": "20"}`)),
			msg("tool", logs(50_000), "tool_call_id", "c2", "name", "logs__query"), answer)
		// store 1, the first stored output 2, the recovered call 3, the cut 4
		Expect(importRun(trace, 5)).To(ContainSubstring("HANDLE 00000000-0000-4000-8000-000000000004"))
	})

	It("a batch call leaked as invalid JSON, then the retry (the bundled trace)", func() {
		data, err := os.ReadFile("../../scenarios/regress/traces/leaked-tools.json")
		Expect(err).NotTo(HaveOccurred())
		var trace []map[string]any
		Expect(json.Unmarshal(data, &trace)).To(Succeed())
		importRun(trace, 1)
		importRun(trace, 3)
	})
})
