package main

import (
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// sources are what the report takes from the world: the time (the wall
// clock and a ticker of a second under make test, a fake in the specs,
// which never sleep) and the list of the packages go test will test.
type sources struct {
	now   func() time.Time
	ticks <-chan time.Time // wakes the heartbeat; nil: never
	// list runs `go list` on patterns (goList) and delivers the import
	// paths on the channel, once, when it is done: it runs beside go test,
	// not before it (a cold go list took 12 s at a load of 20).
	list func(goBin string, patterns []string) <-chan []string
}

// goList is sources.list for make test: the packages go test will test,
// in its order; nothing when go list fails (the STATUS lines then have no
// totals; go test reports what is wrong).
func goList(goBin string, patterns []string) <-chan []string {
	c := make(chan []string, 1)
	go func() {
		out, err := exec.Command(goBin, append([]string{"list"}, patterns...)...).Output()
		if err != nil {
			out = nil
		}
		c <- strings.Fields(string(out))
	}()
	return c
}

// console is the report's output; it remembers when it last printed, so
// that the heartbeat speaks only after a silence.
type console struct {
	w    io.Writer
	now  func() time.Time
	last time.Time
}

func (c *console) Write(p []byte) (int, error) {
	c.last = c.now()
	return c.w.Write(p)
}

// maxRunning bounds the running packages a heartbeat names.
const maxRunning = 4

// beat prints a STATUS line when the console has been silent for
// r.heartbeat (0: never): how long the run has taken, how many packages are
// done, which run and for how long (each with the test that started last
// and has not ended: a hang names the same test line after line), and,
// when the packages to test are known (--list), how many have not
// started and which starts next (go test starts them in the order given,
// each once its test binary is built).
func (r *report) beat() {
	now := r.now()
	if r.heartbeat <= 0 || now.Sub(r.out.last) < r.heartbeat {
		return
	}
	fmt.Fprintln(r.console, r.status(now))
}

func (r *report) status(now time.Time) string {
	if r.expected == nil && r.listed != nil {
		select {
		case r.expected = <-r.listed:
			r.listed = nil
		default: // go list has not answered yet
		}
	}
	done := 0
	var running []string
	for _, p := range r.pkgs {
		switch {
		case p.action != "":
			done++
		case !p.started.IsZero():
			running = append(running, r.describeRunning(p, now))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "STATUS %s: %d", round(now.Sub(r.start)), done)
	if len(r.expected) > 0 {
		fmt.Fprintf(&b, " of %d", len(r.expected))
	}
	b.WriteString(" packages done; ")
	switch {
	case len(running) == 0:
		b.WriteString("none running (compiling)")
	case len(running) > maxRunning:
		fmt.Fprintf(&b, "running %s and %d more", strings.Join(running[:maxRunning], ", "), len(running)-maxRunning)
	default:
		b.WriteString("running " + strings.Join(running, ", "))
	}
	if len(r.expected) > 0 {
		waiting := 0
		next := ""
		for _, name := range r.expected {
			if p := r.byPkg[name]; p != nil && (!p.started.IsZero() || p.action != "") {
				continue
			}
			if waiting == 0 {
				next = short(name)
			}
			waiting++
		}
		if waiting > 0 {
			fmt.Fprintf(&b, "; %d to start, next %s", waiting, next)
		}
	}
	return b.String()
}

// describeRunning names a running package, for how long it has run, and
// the test of it that started last and has not ended.
func (r *report) describeRunning(p *pkgResult, now time.Time) string {
	s := fmt.Sprintf("%s for %s", short(p.name), round(now.Sub(p.started)))
	for i := len(p.tests) - 1; i >= 0; i-- {
		if p.tests[i].action == "" {
			return s + " (" + p.tests[i].name + ")"
		}
	}
	return s
}

// round prints a duration to the second: 0s, 45s, 2m30s.
func round(d time.Duration) string { return d.Round(time.Second).String() }

// follow reads the stream as read does, and between its lines, on each
// tick, lets the heartbeat speak: the lines are scanned in a goroutine of
// their own, and every event and tick is handled here, one at a time, so
// the report needs no lock.
func (r *report) follow(in io.Reader, ticks <-chan time.Time) error {
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		errc <- r.scan(in, func(line []byte) { lines <- string(line) })
		close(lines)
	}()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return <-errc
			}
			r.line([]byte(line))
		case <-ticks:
			r.beat()
		}
	}
}
