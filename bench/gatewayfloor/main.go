// Command gatewayfloor measures `toolout gateway serve` against the floor,
// a plain net/http/httputil.ReverseProxy doing no work, in one run:
// `make bench-gateway`.
//
// It starts a fake OpenAI chat-completions upstream in its own process
// (JSON answers, and event streams whose first event goes out at once),
// then the gateway and the floor as child processes in front of it: the
// gateway built from ./cmd/toolout (or -toolout), compressing with the
// simple strategy, expand_context offered, the memory store at -cap; the
// floor is this program run again in floor mode, with an idle pool of 64
// connections per host (the gateway's default max_concurrent_requests),
// so that it measures the proxying alone. For -reps repetitions, each
// figure is measured on both proxies one after the other, the one that
// goes first alternating, so that the machine's noise hits both alike:
//
//   - throughput: -conc clients sending requests with nothing to compress
//     back to back, answers per second over -duration, in 6 turns of
//     each proxy (gateway, floor, floor, gateway, ...);
//   - latency: -latency requests from one client, round-robin over the
//     upstream direct, the floor and the gateway; each proxy's added
//     latency is its p50 minus the direct p50;
//   - new-200KB: CPU per request (utime + stime from /proc/PID/stat of the
//     proxy's process) over -cpu requests, each carrying a new -size byte
//     tool result, from 4 clients;
//   - repeated-200KB: the same with one result sent again and again (the
//     gateway finds it stored after the first, sent before measuring);
//   - ttfb: time to the first byte of a streamed answer, -latency requests
//     round-robin over direct, floor and gateway; the p50s.
//
// Then, once, a fresh gateway takes -mem new results from 4 clients and
// its peak resident set (VmHWM from /proc/PID/status) is read.
//
// The figures go to stdout as each repetition ends and, as Go benchmark lines
// ("BenchmarkGatewayFloor/throughput 1 2091 gateway-req/s 3100
// floor-req/s"), to -out, which `go run ./bench/ratios -goals gateway -in
// FILE` checks against the goals (bench/ratios/goals.go); a ratio is the
// median over the repetitions of each repetition's ratio.
//
// Linux only (/proc). Clock ticks are taken to be 1/100 s (USER_HZ), so a
// CPU figure is exact to 10 ms over its -cpu requests.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// config is the run's sizes, from the flags.
type config struct {
	Reps, Conc, Latency, CPU, Size, Mem int
	Duration                            time.Duration
	Cap                                 int64
	Toolout, Out                        string
}

func main() {
	if up := os.Getenv(floorEnv); up != "" {
		serveFloor(up)
	}
	var c config
	flag.IntVar(&c.Reps, "reps", 3, "repetitions of every figure but memory")
	flag.IntVar(&c.Conc, "conc", 32, "concurrent clients of the throughput figure")
	flag.DurationVar(&c.Duration, "duration", 3*time.Second, "time of each proxy's throughput run")
	flag.IntVar(&c.Latency, "latency", 300, "requests of each latency and ttfb figure, to each target")
	flag.IntVar(&c.CPU, "cpu", 1000, "requests of each CPU figure, to each proxy")
	flag.IntVar(&c.Size, "size", 200_000, "bytes of each tool result of the CPU and memory figures")
	flag.IntVar(&c.Mem, "mem", 1500, "new results of the memory figure (0: none)")
	flag.Int64Var(&c.Cap, "cap", 256<<20, "the memory store's max_bytes (its default: 256 MiB)")
	flag.StringVar(&c.Toolout, "toolout", "", "a toolout binary to run (default: go build ./cmd/toolout)")
	flag.StringVar(&c.Out, "out", "", "file for the Go benchmark lines (default: none)")
	flag.Parse()
	if err := c.check(); err != nil {
		fmt.Fprintln(os.Stderr, "gatewayfloor:", err)
		os.Exit(2)
	}
	var raw bytes.Buffer
	err := run(c, io.MultiWriter(os.Stdout, &raw))
	if c.Out != "" {
		if werr := os.WriteFile(c.Out, raw.Bytes(), 0o644); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gatewayfloor:", err)
		os.Exit(1)
	}
}

// check refuses sizes that cannot give a figure.
func (c config) check() error {
	switch {
	case c.Reps < 1 || c.Conc < 1 || c.Latency < 1 || c.CPU < 1:
		return fmt.Errorf("-reps, -conc, -latency and -cpu must be at least 1")
	case c.Duration <= 0:
		return fmt.Errorf("-duration %s: must be positive", c.Duration)
	case c.Size < 4096 || c.Size > 4<<20:
		return fmt.Errorf("-size %d: must be within 4096 and 4 MiB (compressed: over min_bytes, within max_work_bytes)", c.Size)
	case c.Mem < 0:
		return fmt.Errorf("-mem %d: must not be negative", c.Mem)
	case c.Cap < 32*int64(c.Size):
		return fmt.Errorf("-cap %d: the gateway needs at least 32 x the largest result (%d)", c.Cap, 32*c.Size)
	}
	return nil
}
