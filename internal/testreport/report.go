package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent) or of
// the build output it interleaves (go build -json's BuildEvent).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
	ImportPath  string // build-output and build-fail events
}

// maxOutput bounds the output kept per test (and per package): a test that
// prints without end must not hold the run's memory. The end is kept, where
// a failure's message is.
const maxOutput = 64 << 10

// maxLine bounds one line of the input stream.
const maxLine = 16 << 20

// testCase is one test's result.
type testCase struct {
	name    string
	action  string // pass, fail, skip
	elapsed float64
	out     strings.Builder
}

type pkgResult struct {
	name    string
	tests   []*testCase
	byName  map[string]*testCase
	out     strings.Builder // output outside any test
	action  string          // pass, fail, skip ("" while running)
	elapsed float64
	build   bool      // failed to build
	started time.Time // when its start event came (zero before)
}

// report gathers a run and prints it as it goes.
type report struct {
	console   io.Writer
	out       *console         // console, which knows when it last printed
	now       func() time.Time // the clock of the heartbeat and the times printed
	start     time.Time        // when the report began
	heartbeat time.Duration    // a STATUS line after this long a silence (0: none)
	expected  []string         // the packages go test will test, in its order (--list)
	listed    <-chan []string  // delivers expected, once go list is done
	skips     []skip           // skipped tests, with their reasons
	pkgs      []*pkgResult
	byPkg     map[string]*pkgResult
	builds    map[string]*strings.Builder // build output per import path
	tests     int
	failures  int
	skipped   int
	broken    int // lines that were not events, printed as they came
}

// newReport prints to w, reading the time from now.
func newReport(w io.Writer, now func() time.Time) *report {
	out := &console{w: w, now: now, last: now()}
	return &report{console: out, out: out, now: now, start: out.last,
		byPkg: map[string]*pkgResult{}, builds: map[string]*strings.Builder{}}
}

// appendBounded appends s to b, keeping at most maxOutput bytes: past it,
// the oldest half is dropped (whole lines kept where possible).
func appendBounded(b *strings.Builder, s string) {
	if b.Len()+len(s) <= maxOutput {
		b.WriteString(s)
		return
	}
	all := b.String() + s
	cut := all[len(all)-maxOutput/2:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i < len(cut)-1 {
		cut = cut[i+1:]
	}
	b.Reset()
	b.WriteString("... (earlier output dropped)\n")
	b.WriteString(cut)
}

func (r *report) pkg(name string) *pkgResult {
	p := r.byPkg[name]
	if p == nil {
		p = &pkgResult{name: name, byName: map[string]*testCase{}}
		r.byPkg[name] = p
		r.pkgs = append(r.pkgs, p)
	}
	return p
}

// read consumes the stream without a heartbeat (follow has one).
func (r *report) read(in io.Reader) error { return r.scan(in, r.line) }

// line handles one line of the stream; a line that is not an event is
// printed as it is (go test writes some errors, such as a bad flag, as
// plain text).
func (r *report) line(line []byte) {
	var e event
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
		r.broken++
		fmt.Fprintf(r.console, "%s\n", line)
		return
	}
	r.add(e)
}

// scan calls each with every line of in.
func (r *report) scan(in io.Reader, each func([]byte)) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		each(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		// Read the rest, so that go test is not stopped by a closed
		// pipe and the --json copy is whole; the run counts as failed.
		_, _ = io.Copy(io.Discard, in)
		return fmt.Errorf("reading go test -json: %w", err)
	}
	return nil
}

func (r *report) add(e event) {
	switch e.Action {
	case "build-output":
		b := r.builds[e.ImportPath]
		if b == nil {
			b = &strings.Builder{}
			r.builds[e.ImportPath] = b
		}
		appendBounded(b, e.Output)
		return
	case "build-fail":
		if b := r.builds[e.ImportPath]; b != nil {
			fmt.Fprint(r.console, b.String())
		}
		return
	}
	if e.Package == "" {
		return
	}
	p := r.pkg(e.Package)
	if e.Test == "" {
		r.addPackage(p, e)
		return
	}
	t := p.byName[e.Test]
	if t == nil {
		t = &testCase{name: e.Test}
		p.byName[e.Test] = t
		p.tests = append(p.tests, t)
	}
	switch e.Action {
	case "output":
		appendBounded(&t.out, e.Output)
	case "pass", "fail", "skip", "bench":
		if e.Action == "bench" { // a benchmark that logged and did not fail
			e.Action = "pass"
		}
		if t.action != "" { // a second end of the same test: keep the first
			return
		}
		t.action, t.elapsed = e.Action, e.Elapsed
		r.tests++
		switch e.Action {
		case "fail":
			r.failures++
			fmt.Fprintf(r.console, "=== FAIL %s.%s (%.2fs)\n%s", short(p.name), t.name, t.elapsed, t.out.String())
		case "skip":
			// Listed, with its reason, before DONE (skipSummary).
			r.skipped++
			r.skips = append(r.skips, skip{where: short(p.name), reason: skipReason(t.out.String())})
		}
	}
}

func (r *report) addPackage(p *pkgResult, e event) {
	switch e.Action {
	case "start":
		p.started = r.now()
	case "output":
		appendBounded(&p.out, e.Output)
	case "pass", "fail", "skip":
		p.action, p.elapsed = e.Action, e.Elapsed
		p.build = e.FailedBuild != ""
		switch {
		case e.Action == "fail":
			// The package's own output (a panic, a timeout, a build
			// failure's summary) is what says why.
			fmt.Fprintf(r.console, "FAIL %s (%.2fs)\n%s", short(p.name), p.elapsed, p.out.String())
		case e.Action == "skip":
			fmt.Fprintf(r.console, "EMPTY %s\n", short(p.name))
		default:
			fmt.Fprintf(r.console, "PASS %s (%.2fs%s)\n", short(p.name), p.elapsed, p.counts())
		}
	}
}

// counts says how many tests a package ran and skipped: ", 12 tests, 1
// skipped" (subtests count, as in DONE).
func (p *pkgResult) counts() string {
	skipped := 0
	for _, t := range p.tests {
		if t.action == "skip" {
			skipped++
		}
	}
	s := fmt.Sprintf(", %d tests", len(p.tests))
	if skipped > 0 {
		s += fmt.Sprintf(", %d skipped", skipped)
	}
	return s
}

// short drops the module path from a package path for the console.
func short(pkg string) string {
	const module = "github.com/toolout/toolout/"
	if rest, ok := strings.CutPrefix(pkg, module); ok {
		return rest
	}
	return pkg
}

// failed tells whether the run failed: a failed test or package, a test or
// package that never ended (the stream was cut), or no package at all.
func (r *report) failed() bool {
	if len(r.pkgs) == 0 {
		return true
	}
	for _, p := range r.pkgs {
		if p.action == "fail" || p.action == "" {
			return true
		}
		for _, t := range p.tests {
			if t.action == "" { // started, never ended: the JUnit case fails too
				return true
			}
		}
	}
	return r.failures > 0
}

// summary is the closing line.
func (r *report) summary(took time.Duration) string {
	var unfinished []string
	for _, p := range r.pkgs {
		if p.action == "" {
			unfinished = append(unfinished, short(p.name))
		}
	}
	s := fmt.Sprintf("DONE %d tests", r.tests)
	if r.skipped > 0 {
		s += fmt.Sprintf(", %d skipped", r.skipped)
	}
	if r.failures > 0 {
		s += fmt.Sprintf(", %d failures", r.failures)
	}
	s += fmt.Sprintf(" in %.1fs", took.Seconds())
	if len(unfinished) > 0 {
		s += fmt.Sprintf("; %d package(s) never finished: %s", len(unfinished), strings.Join(unfinished, " "))
	}
	if len(r.pkgs) == 0 {
		s += "; no package was tested"
	}
	return s
}

// JUnit XML, the subset CI systems read.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Errors  int          `xml:"errors,attr"`
	Time    string       `xml:"time,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name    string      `xml:"name,attr"`
	Tests   int         `xml:"tests,attr"`
	Fails   int         `xml:"failures,attr"`
	Errors  int         `xml:"errors,attr"`
	Skipped int         `xml:"skipped,attr"`
	Time    string      `xml:"time,attr"`
	Cases   []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Time    string        `xml:"time,attr"`
	Failure *junitFailure `xml:"failure,omitempty"`
	Skipped *junitFailure `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// junit writes the run as JUnit XML: a suite per package, a case per test;
// a package that failed outside its tests (a panic, a build failure, a cut
// stream) gets one failed case of its own, so that no failure is invisible.
func (r *report) junit(w io.Writer, took time.Duration) error {
	out := junitSuites{Time: seconds(took.Seconds())}
	pkgs := slices.Clone(r.pkgs)
	slices.SortFunc(pkgs, func(a, b *pkgResult) int { return strings.Compare(a.name, b.name) })
	for _, p := range pkgs {
		s := junitSuite{Name: p.name, Time: seconds(p.elapsed)}
		fails := 0
		for _, t := range p.tests {
			c := junitCase{Class: p.name, Name: t.name, Time: seconds(t.elapsed)}
			switch t.action {
			case "fail":
				c.Failure = &junitFailure{Message: "Failed", Text: t.out.String()}
				fails++
			case "skip":
				c.Skipped = &junitFailure{Message: "Skipped", Text: t.out.String()}
				s.Skipped++
			case "":
				c.Failure = &junitFailure{Message: "did not finish", Text: t.out.String()}
				fails++
			}
			s.Cases = append(s.Cases, c)
		}
		if (p.action == "fail" || p.action == "") && fails == 0 {
			msg := "package failed"
			switch {
			case p.build:
				msg = "build failed"
			case p.action == "":
				msg = "did not finish"
			}
			s.Cases = append(s.Cases, junitCase{Class: p.name, Name: "(package)", Time: seconds(p.elapsed),
				Failure: &junitFailure{Message: msg, Text: p.out.String()}})
			fails++
		}
		s.Tests, s.Fails = len(s.Cases), fails
		out.Tests += s.Tests
		out.Fails += fails
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "\t")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
