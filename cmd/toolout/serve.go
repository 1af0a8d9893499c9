package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/serve"
)

// serveDrain bounds how long `toolout serve` waits for answers in flight
// when it stops; main's grace period for serve is longer.
const serveDrain = 5 * time.Second

// runServe is `toolout serve SCENARIO.yaml...`: the scenarios' scripted
// model over HTTP (harness/serve) until SIGINT or SIGTERM (ctx), or, with
// --exit-when-done, until every step has answered all its times, or, with
// --deadline D, until D has passed since it started listening (for a CI
// job whose agent may die before it sends every request). It prints each
// scenario's base URL on stdout, one line each, before it answers
// anything; on the way out, every violation, unused step and request it
// rejected (4xx) on stderr, one line each at its step's file:line:col (the
// scenario's file for a rejected request), then a summary. Exit 0 when the
// scripts were followed and nothing was rejected, 1 when there is any
// problem (main keeps the status after a signal), 2 on bad usage or a
// scenario that does not load.
func runServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "SCENARIO.yaml... [--addr 127.0.0.1:0] [--allow-remote] [--exit-when-done] [--deadline D] [--max-body BYTES] [--max-concurrent N] [--timeout 15s] [--verbose] [--replay-speed F] [--record UPSTREAM [--record-only] [--redact-emails] [--redact REGEX]...]", stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port); loopback only unless --allow-remote")
	remote := fs.Bool("allow-remote", false, "allow an address that is not loopback")
	exitWhenDone := fs.Bool("exit-when-done", false, "stop once every step has answered all its times")
	deadline := fs.Duration("deadline", 0, "stop after this long (a Go duration, e.g. 2m) even if steps are left unused: they are reported and the exit status is 1")
	maxBody := fs.Int64("max-body", serve.DefaultMaxBodyBytes, "refuse request bodies over this many bytes (413)")
	maxConc := fs.Int("max-concurrent", serve.DefaultMaxConcurrent, "answer at most this many completions at once (more: 503)")
	timeout := fs.Duration("timeout", serve.DefaultTimeout, "the time allowed for one completion, a stream's scripted delays included (past it the stream is cut and the connection dropped)")
	verbose := fs.Bool("verbose", false, "log one line per request on stderr")
	speed := fs.Float64("replay-speed", 0, "play the timing a recording kept (time to first byte, chunk cadence), each wait times this: 1 as recorded, 0 not at all")
	rf := recordFlags(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "toolout serve: "+format+"\n", a...)
		return exitUsage
	}
	switch {
	case len(files) == 0:
		return fail("want at least one scenario file")
	case *maxBody <= 0 || *maxConc <= 0:
		return fail("--max-body and --max-concurrent: want positive numbers")
	case !(*speed >= 0 && *speed <= 100):
		return fail("--replay-speed %v: want a number from 0 to 100", *speed)
	case *timeout <= 0:
		return fail("--timeout %s: want a positive duration", *timeout)
	case *deadline < 0 || *deadline == 0 && flagGiven(fs.FlagSet, "deadline"):
		return fail("--deadline %s: want a positive duration", *deadline)
	}
	var mu sync.Mutex // the log's lines come from concurrent requests
	opts := serve.Options{MaxBodyBytes: *maxBody, MaxConcurrent: *maxConc, Timeout: *timeout, ReplaySpeed: *speed}
	if *verbose {
		opts.Logf = func(format string, a ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "toolout serve: "+format+"\n", a...)
		}
	}
	if opts.Record, err = rf.recorder(opts.Logf); err != nil {
		return fail("%v", err)
	}
	srv, err := serve.Load(files, opts)
	if err != nil {
		printLoadErrors(stderr, err)
		return exitUsage
	}
	ln, err := serve.Listen(*addr, *remote)
	if err != nil {
		return fail("--addr: %v", err)
	}
	hs := srv.HTTPServer()
	for _, u := range srv.URLs(ln.Addr()) {
		fmt.Fprintln(stdout, u)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	var done <-chan struct{}
	if *exitWhenDone {
		done = srv.Done()
	}
	if err := awaitStop(ctx, served, done, *deadline, srv, stderr); err != nil {
		fmt.Fprintf(stderr, "toolout serve: %v\n", err)
		return exitFailed
	}
	_ = srv.Close() // ends the waits of steps with after:
	drain, cancel := context.WithTimeout(context.Background(), serveDrain)
	defer cancel()
	if err := hs.Shutdown(drain); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = hs.Close()
	}
	return report(srv, stderr)
}

// printLoadErrors prints why the scenarios did not load, one line each: a
// problem at a line of a file as the compiler-style FILE:LINE:COL: what
// (as toolout test lists them), and any other (a file that cannot be read,
// a scenario with nothing to serve) as "toolout serve: ...", like every
// other error of the command.
func printLoadErrors(stderr io.Writer, err error) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var list harness.ErrorList
		if !errors.As(e, &list) {
			fmt.Fprintf(stderr, "toolout serve: %v\n", e)
			continue
		}
		for _, p := range list {
			if p.Pos.Line == 0 {
				fmt.Fprintf(stderr, "toolout serve: %v\n", p)
			} else {
				fmt.Fprintln(stderr, p)
			}
		}
	}
}

// awaitStop blocks until serve is to stop: a signal (ctx), every step
// answered (done, with --exit-when-done), the deadline passed (when
// positive; it says so on stderr, with the steps left unused), or the
// listener failing, whose error it returns.
func awaitStop(ctx context.Context, served <-chan error, done <-chan struct{}, deadline time.Duration, srv *serve.Server, stderr io.Writer) error {
	var late <-chan time.Time
	if deadline > 0 {
		t := time.NewTimer(deadline)
		defer t.Stop()
		late = t.C
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	case <-done:
	case <-late:
		if n := srv.Unused(); n > 0 {
			fmt.Fprintf(stderr, "toolout serve: --deadline %s passed with %d step(s) unused\n", deadline, n)
		} else {
			fmt.Fprintf(stderr, "toolout serve: --deadline %s passed\n", deadline)
		}
	}
	return nil
}

// report prints every problem, one line each, and a summary; it returns
// the exit status.
func report(srv *serve.Server, stderr io.Writer) int {
	problems := srv.Problems()
	for _, p := range problems {
		fmt.Fprintln(stderr, p)
	}
	rejected := srv.Rejected()
	requests := rejected + srv.Forwarded()
	for _, b := range srv.Bases() {
		requests += len(srv.Calls(b.Scenario))
	}
	summary := fmt.Sprintf("toolout serve: stopped after %d request(s)", requests)
	if n := srv.Forwarded(); n > 0 {
		summary += fmt.Sprintf(", %d forwarded to the upstream", n)
	}
	if rejected > 0 {
		summary += fmt.Sprintf(", %d rejected", rejected)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "%s: %d problem(s)\n", summary, len(problems))
		return exitFailed
	}
	fmt.Fprintf(stderr, "%s: every step answered as scripted\n", summary)
	return exitOK
}

// flagGiven reports whether the command line set the named flag.
func flagGiven(fs *flag.FlagSet, name string) (given bool) {
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
