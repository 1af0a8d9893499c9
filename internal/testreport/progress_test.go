package main

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fakeClock is a clock the spec moves by hand; the report may read it from
// its own goroutine (follow), hence the lock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// still never moves, never ticks and lists nothing.
func still() sources {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	return sources{now: c.now}
}

// listed lists pkgs at once, as a go list that was done before the first
// STATUS line.
func listed(pkgs ...string) func(string, []string) <-chan []string {
	return func(goBin string, patterns []string) <-chan []string {
		Expect(goBin).To(Equal("go"))
		c := make(chan []string, 1)
		c <- pkgs
		return c
	}
}

const pkgB, pkgC = "github.com/toolout/toolout/core/b", "github.com/toolout/toolout/core/c"

var _ = Describe("the heartbeat", func() {
	var (
		clk *fakeClock
		out *bytes.Buffer
		r   *report
	)
	// feed hands the report events as follow does, one line at a time.
	feed := func(stream string) {
		for line := range strings.Lines(stream) {
			r.line([]byte(strings.TrimSuffix(line, "\n")))
		}
	}
	BeforeEach(func() {
		clk = &fakeClock{t: time.Unix(1e9, 0)}
		out = &bytes.Buffer{}
		r = newReport(out, clk.now)
		r.heartbeat = 30 * time.Second
		r.expected = []string{pkgA, pkgB, pkgC}
	})

	It("says nothing before 30 s of silence, then what compiles and which package starts next", func() {
		clk.advance(29 * time.Second)
		r.beat()
		Expect(out.String()).To(BeEmpty())
		clk.advance(time.Second)
		r.beat()
		Expect(out.String()).To(Equal("STATUS 30s: 0 of 3 packages done; none running (compiling); 3 to start, next core/a\n"))
		clk.advance(29 * time.Second)
		r.beat()
		Expect(out.String()).To(HaveSuffix("next core/a\n"), "its own line counts as output: the next one comes 30 s later")
	})

	It("names the running packages, for how long, and the test that started last and has not ended", func() {
		clk.advance(40 * time.Second)
		feed(ev("start", pkgB, "", "", 0) + ev("pass", pkgB, "", "", 1) +
			ev("start", pkgA, "", "", 0) + ev("run", pkgA, "TestQuick", "", 0) + ev("run", pkgA, "TestSlow", "", 0) +
			ev("pass", pkgA, "TestQuick", "", 0.1))
		Expect(out.String()).To(Equal("PASS core/b (1.00s, 0 tests)\n"), "a passing test prints nothing")
		clk.advance(29 * time.Second)
		r.beat()
		Expect(out.String()).To(Equal("PASS core/b (1.00s, 0 tests)\n"), "a printed line restarts the silence")
		clk.advance(31 * time.Second)
		r.beat()
		Expect(out.String()).To(HaveSuffix("\nSTATUS 1m40s: 1 of 3 packages done; running core/a for 1m0s (TestSlow); 1 to start, next core/c\n"))
	})

	It("counts the packages done, and leaves out what is left to start once all have started", func() {
		feed(ev("start", pkgA, "", "", 0) + ev("pass", pkgA, "", "", 1) + ev("start", pkgB, "", "", 0) +
			ev("start", pkgC, "", "", 0) + ev("skip", pkgC, "", "", 0))
		out.Reset()
		clk.advance(2*time.Minute + 30*time.Second)
		r.beat()
		Expect(out.String()).To(Equal("STATUS 2m30s: 2 of 3 packages done; running core/b for 2m30s\n"))
	})

	It("names four running packages at most, and counts without a total when the packages are not known", func() {
		r.expected = nil
		for _, p := range []string{"p1", "p2", "p3", "p4", "p5", "p6"} {
			feed(ev("start", p, "", "", 0))
		}
		clk.advance(time.Minute)
		r.beat()
		Expect(out.String()).To(Equal("STATUS 1m0s: 0 packages done; running p1 for 1m0s, p2 for 1m0s, p3 for 1m0s, p4 for 1m0s and 2 more\n"))
	})

	It("counts against go list's packages once it has answered, and without them before", func() {
		r.expected = nil
		c := make(chan []string, 1)
		r.listed = c
		clk.advance(30 * time.Second)
		r.beat()
		Expect(out.String()).To(Equal("STATUS 30s: 0 packages done; none running (compiling)\n"))
		c <- []string{pkgA, pkgB}
		clk.advance(30 * time.Second)
		r.beat()
		Expect(out.String()).To(HaveSuffix("\nSTATUS 1m0s: 0 of 2 packages done; none running (compiling); 2 to start, next core/a\n"))
	})

	It("lists the packages with the go command, and none when go list fails", func() {
		Expect(<-goList("go", []string{"."})).To(Equal([]string{"github.com/toolout/toolout/internal/testreport"}))
		Expect(<-goList("go", []string{"./no-such-folder"})).To(BeEmpty())
	})

	It("never speaks with a heartbeat of 0", func() {
		r.heartbeat = 0
		clk.advance(time.Hour)
		r.beat()
		Expect(out.String()).To(BeEmpty())
	})

	It("speaks on a tick while go test is silent, through run and its flags", func() {
		clk := &fakeClock{t: time.Unix(1e9, 0)}
		ticks := make(chan time.Time)
		pr, pw := io.Pipe()
		var stdout, stderr bytes.Buffer
		code := make(chan int, 1)
		go func() {
			defer GinkgoRecover()
			code <- run([]string{"--list", "./core/a ./...", "--heartbeat", "1m"}, pr, &stdout, &stderr,
				sources{now: clk.now, ticks: ticks, list: listed(pkgA, pkgB)})
		}()
		ticks <- clk.now() // received: run is reading, its clock started
		clk.advance(59 * time.Second)
		ticks <- clk.now()
		clk.advance(time.Second)
		ticks <- clk.now()
		ticks <- clk.now() // received: the tick before it was handled
		_, err := io.WriteString(pw, ev("start", pkgA, "", "", 0)+ev("pass", pkgA, "", "", 1)+
			ev("start", pkgB, "", "", 0)+ev("pass", pkgB, "", "", 1))
		Expect(err).NotTo(HaveOccurred())
		Expect(pw.Close()).To(Succeed())
		Expect(<-code).To(Equal(0))
		Expect(stdout.String()).To(Equal("STATUS 1m0s: 0 of 2 packages done; none running (compiling); 2 to start, next core/a\n" +
			"PASS core/a (1.00s, 0 tests)\nPASS core/b (1.00s, 0 tests)\nDONE 0 tests in 60.0s\n"))
		Expect(stderr.String()).To(BeEmpty())
	})

	It("refuses a negative heartbeat", func() {
		var stdout, stderr bytes.Buffer
		Expect(run([]string{"--heartbeat", "-1s"}, strings.NewReader(""), &stdout, &stderr, still())).To(Equal(2))
		Expect(stderr.String()).To(Equal("testreport: --heartbeat -1s: negative\n"))
	})
})
