package main

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"
)

func load(t *testing.T, name string) Results {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestParse(t *testing.T) {
	res := load(t, "bench.txt")
	if got := res["BenchmarkPlan/size=1MiB"]["ns/op"]; len(got) != 3 || got[1] != 30e6 {
		t.Errorf("Plan ns/op = %v, want three runs, the second 30e6", got)
	}
	if _, ok := res["BenchmarkPlan/size=1MiB-2"]; ok {
		t.Error("the GOMAXPROCS suffix is kept")
	}
	if len(res) != 7 {
		t.Errorf("%d benchmarks, want 7 (log, header and PASS lines skipped): %v", len(res), res)
	}
	for _, c := range []struct {
		m    Metric
		want float64
	}{
		{Metric{"BenchmarkPlan/size=1MiB", "ns/op"}, 10e6},      // odd count: the middle one
		{Metric{"BenchmarkSummary/fields=10000", "ns/op"}, 5e6}, // even count: mean of the middle two
		{Metric{"BenchmarkCount/size=1MiB", "MB/s"}, 131.07},
		{Metric{"BenchmarkPlan/size=1MiB", "B/byte"}, 0.2},       // a metric the benchmark reports
		{Metric{"BenchmarkOurs/input=prose", "tokens"}, 226291},  // after ns/op, before B/op
		{Metric{"BenchmarkHard/size=1MiB", "allocs/op"}, 21},     // the last column
		{Metric{"BenchmarkPeer/input=prose", "B/op"}, 134102768}, // a large integer
	} {
		if got, ok := res.Median(c.m); !ok || got != c.want {
			t.Errorf("Median(%v) = %v, %v; want %v", c.m, got, ok, c.want)
		}
	}
	if _, ok := res.Median(Metric{"BenchmarkPlan/size=10MiB", "ns/op"}); ok {
		t.Error("Median of an absent benchmark is found")
	}
	if _, err := Parse(strings.NewReader("BenchmarkOdd-2   5   abc ns/op\n")); err == nil {
		t.Error("a value that is no number is accepted")
	}
}

func TestEvaluate(t *testing.T) {
	res := load(t, "bench.txt")
	plan := Metric{"BenchmarkPlan/size=1MiB", "ns/op"}
	count := Metric{"BenchmarkCount/size=1MiB", "ns/op"}
	summary := Metric{"BenchmarkSummary/fields=10000", "ns/op"}
	hard10, hard1 := Metric{"BenchmarkHard/size=10MiB", "B/op"}, Metric{"BenchmarkHard/size=1MiB", "B/op"}
	ours, peer := Metric{"BenchmarkOurs/input=prose", "ns/op"}, Metric{"BenchmarkPeer/input=prose", "ns/op"}
	for _, c := range []struct {
		g       Goal
		figure  float64
		verdict string
	}{
		// plan 9, 30, 10 over count 8, 8, 9 round by round: 1.125, 3.75,
		// 1.111, median 1.125 (the medians' ratio, 10/8, would be 1.25)
		{Goal{Label: "ratio over", Of: plan, Per: count, Cmp: AtMost, Limit: 1.1}, 1.125, "OVER"},
		{Goal{Label: "ratio within", Of: plan, Per: count, Cmp: AtMost, Limit: 1.3}, 1.125, "OK"},
		{Goal{Label: "at most is inclusive", Of: plan, Per: count, Cmp: AtMost, Limit: 1.125}, 1.125, "OK"},
		{Goal{Label: "runs differ in number: medians", Of: summary, Per: count, Cmp: AtMost, Limit: 1}, 5.0 / 8, "OK"},
		{Goal{Label: "under is strict", Of: summary, Scale: 1e-6, Cmp: Under, Limit: 5}, 5, "OVER"},
		{Goal{Label: "under", Of: summary, Scale: 1e-6, Cmp: Under, Limit: 6}, 5, "OK"},
		{Goal{Label: "speed", Of: Metric{plan.Bench, "MB/s"}, Cmp: AtLeast, Limit: 100}, 104.86, "OK"},
		{Goal{Label: "too slow", Of: Metric{plan.Bench, "MB/s"}, Cmp: AtLeast, Limit: 110}, 104.86, "OVER"},
		{Goal{Label: "memory", Of: Metric{plan.Bench, "B/byte"}, Cmp: Under, Limit: 1}, 0.2, "OK"},
		{Goal{Label: "growth", Of: hard10, Per: hard1, Cmp: AtMost, Limit: 1.5}, 58952.0 / 33564, "OVER"},
		{Goal{Label: "growth of scratch", Of: hard10, Per: hard1, Floor: 64 << 10, Cmp: AtMost, Limit: 1.5}, 1, "OK"},
		{Goal{Label: "per call", Of: count, Per: Metric{plan.Bench, "chunks"}, Scale: 1e-3, Cmp: Under, Limit: 1}, 8e6 / 60 / 1e3, "OVER"},
		{Goal{Label: "peer", Of: ours, Per: peer, Cmp: Info}, 0.025, "info"},
		{Goal{Label: "counts differ", Of: ours, Per: peer, Cmp: Info, Same: "tokens", SameAs: peer.Bench}, 0.025, "MISMATCH"},
		{Goal{Label: "counts equal", Of: plan, Per: count, Cmp: AtMost, Limit: 2, Same: "B/op", SameAs: plan.Bench}, 1.125, "OK"},
		{Goal{Label: "no such run", Of: Metric{"BenchmarkPlan/size=10MiB", "ns/op"}, Cmp: AtMost, Limit: 1}, 0, "MISSING"},
		{Goal{Label: "no baseline", Of: plan, Per: Metric{"BenchmarkNone", "ns/op"}, Cmp: AtMost, Limit: 1}, 10e6, "MISSING"},
		{Goal{Label: "no such metric", Of: Metric{plan.Bench, "MB/s"}, Cmp: AtMost, Limit: 1, Same: "tokens", SameAs: peer.Bench}, 104.86, "MISSING"},
	} {
		l := evaluate(res, c.g)
		if l.Verdict != c.verdict || math.Abs(l.Figure-c.figure) > 1e-9*math.Abs(c.figure) {
			t.Errorf("%s: figure %v, %s (%s); want %v, %s", c.g.Label, l.Figure, l.Verdict, l.Note, c.figure, c.verdict)
		}
		if l.Failed() != (c.verdict != "OK" && c.verdict != "info") {
			t.Errorf("%s: Failed() = %v with verdict %s", c.g.Label, l.Failed(), l.Verdict)
		}
	}
}

func TestWrite(t *testing.T) {
	res := load(t, "bench.txt")
	plan, count := Metric{"BenchmarkPlan/size=1MiB", "ns/op"}, Metric{"BenchmarkCount/size=1MiB", "ns/op"}
	gs := []Goal{
		{Row: "row one", Label: "plan / count", Of: plan, Per: count, Unit: "x", Cmp: AtMost, Limit: 1.1},
		{Row: "row one", Label: "plan speed", Of: Metric{plan.Bench, "MB/s"}, Unit: "MB/s", Cmp: AtLeast, Limit: 100},
		{Row: "row two", Label: "peer", Of: count, Per: plan, Unit: "x", Cmp: Info},
	}
	var b bytes.Buffer
	if n := Write(&b, Evaluate(res, gs)); n != 1 {
		t.Errorf("Write counted %d failed, want 1", n)
	}
	out := b.String()
	for _, want := range []string{
		"row one\n",
		"1.12x  at most 1.1x         OVER\n", // paired by round: 1.125
		"105 MB/s  at least 100 MB/s    OK\n",
		"row two\n",
		"0.889x  (a figure, no goal)  info\n",
		"bench-ratios: 3 figures, 1 outside their goal\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "row one") != 1 {
		t.Errorf("a row's heading is printed more than once:\n%s", out)
	}
}

func TestSelections(t *testing.T) {
	gs := []Goal{
		{Of: Metric{"BenchmarkA/enc=x/size=1MiB", "ns/op"}, Per: Metric{"BenchmarkB/size=1MiB", "ns/op"}},
		{Of: Metric{"BenchmarkA/enc=y.z/size=1MiB", "ns/op"}, SameAs: "BenchmarkC"},
		{Of: Metric{"BenchmarkA/enc=x/size=10MiB", "ns/op"}},
	}
	got := strings.Join(selections(gs), "\n")
	want := `^(BenchmarkA)$/^(enc=x|enc=y\.z)$/^(size=1MiB|size=10MiB)$` + "\n" +
		`^(BenchmarkB)$/^(size=1MiB)$` + "\n" +
		`^(BenchmarkC)$`
	if got != want {
		t.Errorf("selections:\n%s\nwant\n%s", got, want)
	}
}

// TestTable evaluates the real table on one round of make bench-ratios: no
// benchmark is missing, the counts agree, and every row of the issue is
// there.
func TestTable(t *testing.T) {
	gs := goals()
	rows, labels := map[string]bool{}, map[string]bool{}
	for _, l := range Evaluate(load(t, "round.txt"), gs) {
		if l.Verdict == "MISSING" || l.Verdict == "MISMATCH" {
			t.Errorf("%s: %s (%s)", l.Goal.Label, l.Verdict, l.Note)
		}
		if labels[l.Goal.Label] {
			t.Errorf("label %q twice", l.Goal.Label)
		}
		if (l.Goal.Cmp == Info) != (l.Goal.Row == rowReal) {
			t.Errorf("%s: only the real-text figures are without a goal", l.Goal.Label)
		}
		if l.Goal.Row == rowPeer && !strings.HasSuffix(l.Note, ", identical") {
			t.Errorf("%s: the ids' hash is not shown: %q", l.Goal.Label, l.Note)
		}
		rows[l.Goal.Row], labels[l.Goal.Label] = true, true
	}
	for _, r := range []string{rowChunk, rowSchema, rowCount, rowHard, rowDense, rowLLM, rowPeer, rowReal, rowCode} {
		if !rows[r] {
			t.Errorf("no goal of row %q", r)
		}
	}
}

// TestGatewayTable evaluates the gateway's goals on three repetitions of
// bench/gatewayfloor: each ratio is the median of the repetitions'
// ratios, the time to first byte the median of their differences.
func TestGatewayTable(t *testing.T) {
	want := map[string]struct {
		figure  float64
		verdict string
	}{
		"gateway / floor throughput":                  {2000.0 / 3000, "OVER"}, // 0.667, 0.7, 0.667
		"gateway / floor added latency p50":           {1.25, "OVER"},          // 1.5, 1, 1.25
		"new 200 KB result CPU, gateway / floor":      {4, "OVER"},             // 4, 4, 4.4
		"repeated 200 KB result CPU, gateway / floor": {1.1, "OK"},             // 1, 1.2, 1.1
		"gateway - floor time to first byte p50":      {0.2, "OK"},             // 0.2, 0.4, 0.15
		"gateway peak RSS over the store's cap":       {540 - 256, "OVER"},
	}
	lines := Evaluate(load(t, "gateway.txt"), gatewayGoals())
	if len(lines) != len(want) {
		t.Errorf("%d gateway goals, want %d", len(lines), len(want))
	}
	for _, l := range lines {
		w, ok := want[l.Goal.Label]
		if !ok {
			t.Errorf("unexpected goal %q", l.Goal.Label)
			continue
		}
		if l.Verdict != w.verdict || math.Abs(l.Figure-w.figure) > 1e-9 {
			t.Errorf("%s: figure %v, %s (%s); want %v, %s", l.Goal.Label, l.Figure, l.Verdict, l.Note, w.figure, w.verdict)
		}
	}
	// A difference whose subtrahend is absent is missing, as a ratio's.
	g := gatewayGoals()[4]
	g.Less.Unit = "none-ms"
	if l := evaluate(load(t, "gateway.txt"), g); l.Verdict != "MISSING" {
		t.Errorf("absent subtrahend: %s, want MISSING", l.Verdict)
	}
	// The gateway's goals stay out of the go test benchmarks run.
	for _, p := range selections(goals()) {
		if strings.Contains(p, "GatewayFloor") {
			t.Errorf("selections run %s", p)
		}
	}
}
