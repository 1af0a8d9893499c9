package main

import "strings"

// The rows of the goals table, each its figure and goal cells joined by
// ": ": every goal below names the row it checks.
const (
	rowChunk   = "chunk planning / counting alone, 1 MiB and 10 MiB: at most 1.1x at every size; memory under 1 byte per input byte beyond the text"
	rowSchema  = "schema summary, 10,000 fields: under 5 ms, and at most 2x plain json.Unmarshal of the same bytes"
	rowCount   = "exact token counting, cl100k / o200k: prose, code, JSON, logs: at least 100 MB/s on each class, counts identical"
	rowHard    = "exact token counting, base64 and one letter with no white space: at least 30 MB/s, linear, constant memory per piece"
	rowDense   = "leaked scan, 1 MiB with a call every ~140 bytes: at least 150 MB/s (under 1 us per call)"
	rowLLM     = "leaked scan, LLM-like text with one call per 3 KB: within 1.5x of bytes.IndexByte + json.Unmarshal of each wrapper body"
	rowPeer    = "exact token counting against pkoukk/tiktoken-go (in go.mod) in the same run, every input, cl100k / o200k: at least 50x its speed, ids identical (their hash beside each figure)"
	rowReal    = "exact token counting on real text (bench/realtext.go: Go's net/http, the Opticks text, CPython's stdlib, openai-node's TypeScript), cl100k / o200k / o200k_harmony: figures"
	rowCode    = "real source code counted at least 0.8x as fast as real prose (the Opticks text), cl100k / o200k, timed in pairs"
	linearMax  = 12       // 10 MiB may cost at most 12x 1 MiB, bench-linear's limit
	memGrowth  = 2        // constant memory: 10 MiB at most 2x the B/op of 1 MiB...
	memScratch = 64 << 10 // ...B/op under 64 KiB counting as 64 KiB (fixed scratch)
)

var (
	encodings = []string{"cl100k_base", "o200k_base"}
	short     = map[string]string{"cl100k_base": "cl100k", "o200k_base": "o200k", "o200k_harmony": "o200k_harmony"}
	// realInputs are bench's realKinds, codeInputs those that are source code.
	realInputs = []string{"go-net-http", "opticks", "python", "typescript"}
	codeInputs = []string{"go-net-http", "python", "typescript"}
)

// goals returns the table: one goal per figure, in the order of its
// rows. The chunk benchmarks' size=100MiB is left out to keep the run
// short.
func goals() []Goal {
	var gs []Goal
	for _, size := range []string{"1MiB", "10MiB"} {
		// Timed in pairs a few milliseconds apart (see the benchmark):
		// ChunkPlan's ns/op over ChunkCount's, each timed on its own for a
		// while, read 1.0x to 1.2x from run to run on the shared 2-core VM.
		gs = append(gs, Goal{Row: rowChunk, Label: "chunk plan / count alone, " + size,
			Of:   Metric{"BenchmarkChunkPlanOverCount/size=" + size, "plan/count"},
			Unit: "x", Cmp: AtMost, Limit: 1.1})
	}
	for _, size := range []string{"1MiB", "10MiB"} {
		gs = append(gs, Goal{Row: rowChunk, Label: "chunk plan memory, " + size,
			Of: Metric{"BenchmarkChunkPlan/size=" + size, "B/byte"}, Unit: "B/byte", Cmp: Under, Limit: 1})
	}
	summary := "BenchmarkSchemaSummarize/fields=10000"
	gs = append(gs,
		Goal{Row: rowSchema, Label: "schema summary, 10,000 fields",
			Of: Metric{summary, "ns/op"}, Scale: 1e-6, Unit: "ms", Cmp: Under, Limit: 5},
		Goal{Row: rowSchema, Label: "schema summary / json.Unmarshal",
			Of: Metric{summary, "ns/op"}, Per: Metric{"BenchmarkSchemaSummarizeBaseline/fields=10000", "ns/op"},
			Unit: "x", Cmp: AtMost, Limit: 2})
	for _, enc := range encodings {
		for _, in := range []string{"prose", "code", "json", "logs"} {
			sub := "/enc=" + enc + "/input=" + in + "/size=1MiB"
			gs = append(gs, Goal{Row: rowCount, Label: "count " + short[enc] + " " + in,
				Of: Metric{"BenchmarkCount" + sub, "MB/s"}, Unit: "MB/s", Cmp: AtLeast, Limit: 100,
				Same: "tokens", SameAs: "BenchmarkCountPeer" + sub})
		}
	}
	for _, enc := range encodings {
		for _, in := range []string{"base64", "one-letter"} {
			gs = append(gs, hardGoals(enc, in)...)
		}
	}
	gs = append(gs, leakedGoals()...)
	for _, enc := range append(encodings, "o200k_harmony") {
		for _, in := range realInputs {
			sub := "/enc=" + enc + "/input=" + in + "/size=1MiB"
			gs = append(gs, Goal{Row: rowReal, Label: "count " + short[enc] + " " + in,
				Of: Metric{"BenchmarkCount" + sub, "MB/s"}, Unit: "MB/s", Cmp: Info})
		}
	}
	for _, enc := range encodings {
		for _, in := range codeInputs {
			sub := "/enc=" + enc + "/input="
			gs = append(gs, Goal{Row: rowCode, Label: short[enc] + " " + in + " / opticks speed",
				Of:   Metric{"BenchmarkCountCodeOverProse" + sub + in + "/size=1MiB", "code/prose"}, // timed in pairs (see the benchmark)
				Unit: "x", Cmp: AtLeast, Limit: 0.8})
		}
	}
	for _, enc := range encodings {
		for _, in := range append([]string{"prose", "code", "json", "logs"}, realInputs...) { // base64: rowHard's
			sub := "/enc=" + enc + "/input=" + in + "/size=1MiB"
			gs = append(gs, Goal{Row: rowPeer, Label: "tiktoken-go / ours time, " + short[enc] + " " + in,
				Of:   Metric{"BenchmarkCountPeer" + sub, "peer/ours"}, // timed in pairs (see the benchmark)
				Unit: "x", Cmp: AtLeast, Limit: 50, Same: "tokens", SameAs: "BenchmarkCount" + sub, IDs: true})
		}
	}
	return gs
}

// hardGoals are the three figures of counting one input of rowHard: speed
// at 1 MiB, then time and memory of 10 MiB over 1 MiB.
func hardGoals(enc, in string) []Goal {
	name := short[enc] + " " + in
	adv := "BenchmarkCountAdversarial/enc=" + enc + "/input=" + in + "/size="
	return []Goal{
		{Row: rowHard, Label: "count " + name,
			Of:   Metric{"BenchmarkCount/enc=" + enc + "/input=" + in + "/size=1MiB", "MB/s"},
			Unit: "MB/s", Cmp: AtLeast, Limit: 30},
		{Row: rowHard, Label: "count " + name + " time 10MiB / 1MiB",
			Of: Metric{adv + "10MiB", "ns/op"}, Per: Metric{adv + "1MiB", "ns/op"},
			Unit: "x", Cmp: AtMost, Limit: linearMax},
		{Row: rowHard, Label: "count " + name + " B/op 10MiB / 1MiB",
			Of: Metric{adv + "10MiB", "B/op"}, Per: Metric{adv + "1MiB", "B/op"}, Floor: memScratch,
			Unit: "x", Cmp: AtMost, Limit: memGrowth},
	}
}

func leakedGoals() []Goal {
	dense := "BenchmarkLeaked/input=dense-calls/size=1MiB"
	return []Goal{
		{Row: rowDense, Label: "leaked dense-calls",
			Of: Metric{dense, "MB/s"}, Unit: "MB/s", Cmp: AtLeast, Limit: 150},
		{Row: rowDense, Label: "leaked dense-calls, per call",
			Of: Metric{dense, "ns/op"}, Per: Metric{dense, "calls"}, Scale: 1e-3,
			Unit: "us/call", Cmp: Under, Limit: 1},
		{Row: rowLLM, Label: "leaked llm-text / IndexByte+Unmarshal",
			Of:   Metric{"BenchmarkLeaked/input=llm-text/size=1MiB", "ns/op"},
			Per:  Metric{"BenchmarkLeakedStdlib/input=llm-text/size=1MiB", "ns/op"},
			Unit: "x", Cmp: AtMost, Limit: 1.5,
			Same: "calls", SameAs: "BenchmarkLeakedStdlib/input=llm-text/size=1MiB"},
	}
}

// The gateway's rows: bench/gatewayfloor's figures, `toolout gateway
// serve` against a plain httputil.ReverseProxy (the floor) in the same run.
const (
	rowGwThroughput = "gateway throughput, 32 concurrent clients, nothing to compress: at least 0.9x the floor's (a plain httputil.ReverseProxy) in the same run"
	rowGwLatency    = "gateway added latency p50 (its p50 minus the upstream's direct p50), nothing to compress: at most 1.2x the floor's"
	rowGwCPU        = "gateway CPU per request with a 200 KB tool result: a new one at most 2x the floor's, a repeated one (stored) at most 1.2x"
	rowGwTTFB       = "gateway streaming time to first byte: at most the floor's + 0.3 ms"
	rowGwMemory     = "gateway peak RSS (VmHWM) over 1,500 new 200 KB results: at most the memory store's cap + 64 MiB"
	gwBench         = "BenchmarkGatewayFloor/"
)

// gatewayGoals is the gateway's part of the table, checked on the output of
// bench/gatewayfloor (make bench-gateway), not on go test's.
func gatewayGoals() []Goal {
	cpu := func(fig string, limit float64) Goal {
		return Goal{Row: rowGwCPU, Label: strings.ReplaceAll(fig, "-200KB", " 200 KB result") + " CPU, gateway / floor",
			Of:   Metric{gwBench + fig, "gateway-cpu-ms/req"},
			Per:  Metric{gwBench + fig, "floor-cpu-ms/req"},
			Unit: "x", Cmp: AtMost, Limit: limit}
	}
	return []Goal{
		{Row: rowGwThroughput, Label: "gateway / floor throughput",
			Of:   Metric{gwBench + "throughput", "gateway-req/s"},
			Per:  Metric{gwBench + "throughput", "floor-req/s"},
			Unit: "x", Cmp: AtLeast, Limit: 0.9},
		{Row: rowGwLatency, Label: "gateway / floor added latency p50",
			Of:   Metric{gwBench + "latency", "gateway-added-ms"},
			Per:  Metric{gwBench + "latency", "floor-added-ms"},
			Unit: "x", Cmp: AtMost, Limit: 1.2},
		cpu("new-200KB", 2),
		cpu("repeated-200KB", 1.2),
		{Row: rowGwTTFB, Label: "gateway - floor time to first byte p50",
			Of:   Metric{gwBench + "ttfb", "gateway-ms"},
			Less: Metric{gwBench + "ttfb", "floor-ms"},
			Unit: "ms", Cmp: AtMost, Limit: 0.3},
		{Row: rowGwMemory, Label: "gateway peak RSS over the store's cap",
			Of:   Metric{gwBench + "memory", "peak-MiB"},
			Less: Metric{gwBench + "memory", "cap-MiB"},
			Unit: "MiB", Cmp: AtMost, Limit: 64},
	}
}
