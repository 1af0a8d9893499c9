// Package bench holds toolout's Go benchmarks. Inputs are generated
// deterministically (seeded), fakes stand in for LLMs, and every benchmark
// uses b.Loop with sizes in sub-benchmark names, so `make bench` output feeds
// straight into benchstat.
package bench
