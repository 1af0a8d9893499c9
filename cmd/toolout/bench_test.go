package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout bench strategies", func() {
	It("prints the same table twice, writes the chart, and flags a regression against a baseline", func() {
		dir := GinkgoT().TempDir()
		svg := filepath.Join(dir, "chart.svg")
		base := filepath.Join(dir, "base.json")
		args := []string{"bench", "strategies", "--cases", "^logs-10KB$", "--svg", svg, "--write-baseline", base}
		first := succeeds("", args...)
		_, second, _ := invoke("", "bench", "strategies", "--cases", "^logs-10KB$")
		Expect(second).To(Equal(first))
		Expect(first).To(ContainSubstring("logs-10KB             read-grep"))
		chart, err := os.ReadFile(svg)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(chart)).To(HavePrefix("<svg "))
		code, _, stderr := invoke("", "bench", "strategies", "--cases", "^logs-10KB$", "--baseline", base)
		Expect(code).To(Equal(0), stderr)
		code, _, stderr = invoke("", "bench", "strategies", "--cases", "^logs-10KB$", "--baseline", base, "--set", "overlap_percent=0")
		Expect(code).To(Equal(1), "a changed --set must not pass for no regression: %s", stderr)
		Expect(stderr).To(ContainSubstring("regression: overlap_percent=0/logs-10KB/truncate: not in the baseline (a row of this run that the baseline lacks)\n"))
		Expect(stderr).NotTo(ContainSubstring("no regression"))
		// A baseline with a row this run does not produce (written before
		// baselines named their model: the oracles').
		var saved map[string][]map[string]any
		data, _ := os.ReadFile(base)
		Expect(string(data)).To(HavePrefix("{\n  \"model\": {\n    \"name\": \"oracle\"\n  },\n"))
		var whole map[string]json.RawMessage
		Expect(json.Unmarshal(data, &whole)).To(Succeed())
		Expect(json.Unmarshal([]byte(`{"rows":`+string(whole["rows"])+`}`), &saved)).To(Succeed())
		extra := map[string]any{"knobs": "byte_cap=1000", "case": "logs-10KB", "strategy": "truncate"}
		more, _ := json.Marshal(map[string]any{"rows": append(saved["rows"], extra)})
		base2 := filepath.Join(dir, "base2.json")
		Expect(os.WriteFile(base2, more, 0o644)).To(Succeed())
		code, _, stderr = invoke("", "bench", "strategies", "--cases", "^logs-10KB$", "--baseline", base2)
		Expect(code).To(Equal(1))
		Expect(stderr).To(Equal("regression: byte_cap=1000/logs-10KB/truncate: missing from this run (a baseline row this run did not produce)\n" +
			"toolout bench strategies: 1 problem(s) against " + base2 + "\n"))
		// A baseline where truncate read fewer tokens: today's run grew.
		for _, row := range saved["rows"] {
			if row["strategy"] == "truncate" {
				row["total_tokens"] = 1000
			}
		}
		data, _ = json.Marshal(saved)
		Expect(os.WriteFile(base, data, 0o644)).To(Succeed())
		code, _, stderr = invoke("", "bench", "strategies", "--cases", "^logs-10KB$", "--baseline", base)
		Expect(code).To(Equal(1))
		Expect(stderr).To(MatchRegexp(`regression: default/logs-10KB/truncate: total tokens \d+, baseline 1000 \(\+\d+%, tolerance 10%\)`))
	})

	It("exits non-zero without a table when its context has ended", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb strings.Builder
		code := run(ctx, []string{"bench", "strategies", "--cases", "^logs-10KB$"}, strings.NewReader(""), &out, &errb)
		Expect(code).To(Equal(1))
		Expect(out.String()).To(BeEmpty())
		Expect(errb.String()).To(Equal("toolout bench strategies: interrupted (context canceled): no table\n"))
	})

	It("stops on SIGINT mid-run: exit 130, no table, no store left", func() {
		// Twenty runs of one case: the signal comes while most are still to run.
		p := startProgram("bench", "strategies", "--cases", "^code-search-200KB$", "--set", "overlap_percent=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19")
		p.interrupt(syscall.SIGINT)
		Expect(p.cmd.ProcessState.ExitCode()).To(Equal(130), p.stderr())
		Expect(p.stdout()).To(BeEmpty())
		Expect(agentDirs(p.tmp)).To(BeEmpty())
	})

	DescribeTable("rejects bad flags in one line",
		refused("", "bench"),
		Entry("no subcommand", []string{}, "toolout bench: want a subcommand: strategies\n"),
		Entry("bad format", []string{"strategies", "--format", "xml"}, "toolout bench strategies: --format \"xml\": want table, csv or json\n"),
		Entry("bad knob", []string{"strategies", "--set", "speed=1"}, "toolout bench strategies: --set: unknown knob \"speed\" (known: byte_cap, simple_words, context_window, max_output_tokens, buffer_tokens, max_chunks, max_chunks_long, line_threshold, overlap_percent, concurrency, read_grep_turns, read_grep_calls_per_turn, head_percent)\n"),
		Entry("knob out of range", []string{"strategies", "--set", "overlap_percent=50"}, "toolout bench strategies: --set: overlap_percent 50: must be 0 to 49\n"),
		Entry("no case", []string{"strategies", "--cases", "nothing"}, "toolout bench strategies: --cases \"nothing\": no case matches\n"),
	)
})

var _ = Describe("toolout import", func() {
	It("writes the scenarios of a trace, the same bytes every time", func() {
		dir := GinkgoT().TempDir()
		out := filepath.Join(dir, "t.yaml")
		stdout := succeeds("", "import", "../../scenarios/regress/traces/leaked-tools.json", "--at", "3", "-o", out)
		Expect(stdout).To(Equal("wrote " + out + "\nwrote " + filepath.Join(dir, "t-leaked.yaml") + "\n"))
		first, _ := os.ReadFile(out)
		invoke("", "import", "../../scenarios/regress/traces/leaked-tools.json", "--at", "3", "-o", out)
		second, _ := os.ReadFile(out)
		Expect(second).To(Equal(first))
		Expect(string(first)).To(ContainSubstring("component: session"))
	})

	It("asks for --at when the trace holds several candidates", func() {
		code, _, stderr := invoke("", "import", "../../scenarios/regress/traces/leaked-tools.json", "-o", filepath.Join(GinkgoT().TempDir(), "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: ../../scenarios/regress/traces/leaked-tools.json: several messages could be imported: 1 (leaked), 3 (leaked); choose one with --at\n"))
	})
})
