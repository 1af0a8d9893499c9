// Command toolout runs toolout's scenarios and exposes each of its parsers on
// files, for use outside `go test`.
//
// Usage:
//
//	toolout test [PATH...] [--update] [--label EXPR] [--run REGEX] [--parallel N]
//	toolout import TRACE.json [-o scenarios/regress/NAME.yaml] [--at N] [--final] [--max-bytes N] [--redact-emails] [--redact REGEX] [--update]
//	toolout bench strategies [--format table|csv|json] [--svg FILE] [--set knob=v1,v2] [--baseline FILE] [--concurrency N] [--llm URL --model NAME [--max-requests N]]
//	toolout chunk [FILE] --budget B [--overlap 10] [--encoding cl100k_base|o200k_base|o200k_harmony]
//	toolout extract plan [FILE] --extract TEXT [--context-window N --max-output N --max-chunks N --overlap P]
//	toolout serve SCENARIO.yaml... [--addr 127.0.0.1:0] [--allow-remote] [--exit-when-done] [--verbose] [--replay-speed F] [--record UPSTREAM [--record-only]]
//	toolout gateway serve --listen 127.0.0.1:PORT [--allow-remote] --upstream URL --config FILE
//	toolout gateway compress --strategy simple [--min-bytes N --max-bytes N] [--tool NAME --provider openai|anthropic --skip-tools a,b] [FILE]
//	toolout gateway shadow-id [FILE]
//	toolout final-report --nonce NONCE [FILE]
//	toolout leaked [FILE] [--ids uuid|seq] [--scan-fences]
//	toolout read --root DIR PATH [--offset N --limit N]
//	toolout grep --root DIR PATTERN [PATH] [--context N --max-results N]
//	toolout schema summarize [FILE] [--max-fields N --max-depth N]
//	toolout schema inspect --tool-id ID --field-path P [FILE]
//	toolout stats [FILE] [--encoding cl100k_base|o200k_base|o200k_harmony]
//	toolout truncate --max-bytes N [FILE]
//	toolout version   (or toolout --version)
//	toolout help [COMMAND [SUBCOMMAND]]
//
// Every hint a failure prints (`to accept it: toolout test --update x.yaml`,
// `run 'toolout help'`) names the program as the user ran it and the paths
// as they gave them, so that it runs verbatim where they stand: `toolout`
// from PATH, `go tool toolout` in a module that declares the tool, `go run
// ./cmd/toolout` at the root of a clone (self.go has the rule).
//
// `toolout help`, `toolout --help` and `toolout -h` print the commands on
// stdout; `toolout help CMD`, `toolout CMD --help` and `toolout CMD -h` print
// CMD's usage and flags on stdout (usage.go, once for every command).
//
// The commands are a table (commands, in main.go). Most are leaves
// (leaf.go): their flags plus a function from the parsed call to one value,
// run by one shared runner that reads FILE or standard input through one
// helper, at most --max-input bytes (default 128MiB), writes the value as
// stable JSON, and prints an error as one plain line (no colour codes); test, import, bench
// strategies and gateway serve print reports. main only wires run to the
// process, and run only dispatches. Exit status: 0 success, 1 failed
// checks, 2 bad usage or bad input (with a one-line error naming the input
// and position), 130 or 143 when SIGINT or SIGTERM stopped the command (its
// stores removed); the servers (serve, gateway serve) stop on those signals
// as their way to end and keep their own status.
//
// Memory: import and gateway serve set the process's soft memory limit
// (runtime/debug.SetMemoryLimit) from what they will hold, unless
// GOMEMLIMIT is set: import from the trace's size (import.go), gateway
// serve from the memory store's bound plus a constant headroom, or from
// server.memory_limit, none with a Redis store (gatewaymem.go).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/toolout/toolout/core/store"
)

// main wires run to the process. SIGINT and SIGTERM cancel run's context;
// a command that stops because of it exits 128 + the signal's number (130,
// 143), as a shell reports a process the signal ended, after its deferred
// cleanups have removed its stores; one that finishes cleanly anyway keeps
// its status (gateway serve shuts down and exits 0), and a server (serve,
// gateway serve) keeps whatever status it returns (serve: 1 when its
// scripts were not followed). If run has not returned within its command's
// grace period (shutdownGrace: 500 ms, so that the exit takes well under a
// second; 11 s for gateway serve, which drains requests for up to 10 s; 6 s
// for serve, 5) or a second signal comes, main removes every store still
// open (store.CloseAll) and exits without waiting. A panic that reaches run's goroutine does the same,
// after printing it, with status 2.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	sigs := make(chan os.Signal, 2) // sees the same signals, to count them
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan int, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(os.Stderr, "toolout: panic: %v\n\n%s", p, debug.Stack())
				_, _ = store.CloseAll()
				os.Exit(2)
			}
		}()
		done <- runAs(ctx, currentInvocation().self(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}()
	grace, server := shutdownGrace(commands(), os.Args[1:])
	var sig os.Signal
	code := -1
	select {
	case code = <-done:
	case sig = <-sigs:
		timer := time.NewTimer(grace)
		select {
		case code = <-done:
		case <-timer.C:
		case <-sigs:
		}
	}
	stop()
	if code < 0 {
		dirs, err := store.CloseAll()
		fmt.Fprintf(os.Stderr, "toolout: %v: stopped without waiting for the command; removed %d open store(s)\n", sig, len(dirs))
		if err != nil {
			fmt.Fprintf(os.Stderr, "toolout: %v\n", err)
		}
	}
	if s, ok := sig.(syscall.Signal); ok && code != exitOK && (code < 0 || !server) {
		code = 128 + int(s)
	}
	os.Exit(code)
}

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// command is one entry of the table: a leaf (leaf.go), a group of leaves,
// or one of the commands that print reports rather than a value (test,
// import, bench, gateway serve).
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
	subs    []command // a group's subcommands, for help
	// grace is how long main waits for a server (serve, gateway serve) to
	// drain after the first SIGINT or SIGTERM; zero: not a server
	// (defaultGrace).
	grace time.Duration
}

// defaultGrace is how long main waits after a signal for a command that is
// not a server: long enough for its deferred cleanups, short enough that
// the exit takes well under a second.
const defaultGrace = 500 * time.Millisecond

// shutdownGrace is the grace period of the command args name (a command,
// or a group and its subcommand), from the table, and whether it is a
// server; defaultGrace and false for any other command or none.
func shutdownGrace(table []command, args []string) (time.Duration, bool) {
	for len(args) > 0 {
		i := slices.IndexFunc(table, func(c command) bool { return c.name == args[0] })
		if i < 0 {
			break
		}
		if c := table[i]; c.grace > 0 {
			return c.grace, true
		}
		table, args = table[i].subs, args[1:]
	}
	return defaultGrace, false
}

func commands() []command {
	return []command{
		{name: "test", summary: "run scenarios and compare their transcripts with golden files", run: runTest},
		{name: "import", summary: "turn a production trace into regression scenarios, secrets redacted", run: runImport},
		{name: "serve", summary: "serve scenarios' scripted model over HTTP (OpenAI and Anthropic APIs) for any agent", run: runServe,
			grace: serveDrain + time.Second},
		benchGroup().cmd("compare the strategies on the bundled corpus (bench strategies)"),
		chunkLeaf().cmd(),
		extractGroup().cmd("route an extraction and plan its chunks without calling a model (extract plan)"),
		gatewayGroup().cmd("compression gateway: serve a proxy, compress one output, print a shadow id"),
		finalReportLeaf().cmd(),
		leakedLeaf().cmd(),
		readLeaf().cmd(),
		grepLeaf().cmd(),
		schemaGroup().cmd("summarize an output schema into folded output_fields, or inspect one field path"),
		statsLeaf().cmd(),
		truncateLeaf().cmd(),
		versionLeaf().cmd(),
	}
}
