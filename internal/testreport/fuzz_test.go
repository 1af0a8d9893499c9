package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzReport feeds any stream to the report: it never panics, its JUnit
// file is well-formed XML whose counts add up, no test's output is kept past
// maxOutput, and the run counts as failed whenever a test or package failed
// or never finished.
func FuzzReport(f *testing.F) {
	f.Add([]byte(`{"Action":"run","Package":"p","Test":"T"}` + "\n" + `{"Action":"pass","Package":"p","Test":"T","Elapsed":0.1}` + "\n" + `{"Action":"pass","Package":"p"}` + "\n"))
	f.Add([]byte(`{"Action":"output","Package":"p","Test":"T","Output":"\u001b[31mx\u0000\n"}` + "\n" + `{"Action":"fail","Package":"p","Test":"T"}` + "\n"))
	f.Add([]byte(`{"ImportPath":"p [p.test]","Action":"build-output","Output":"x.go:1:1: bad\n"}` + "\n" + `{"Action":"fail","Package":"p","FailedBuild":"p [p.test]"}` + "\n"))
	f.Add([]byte("not json\n{\n{\"Action\":1}\n"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := newReport(io.Discard, func() time.Time { return time.Unix(0, 0) })
		r.expected = []string{"p", "q"}
		if err := r.read(bytes.NewReader(stream)); err != nil {
			t.Fatalf("read: %v", err) // every line here is under maxLine
		}
		var out bytes.Buffer
		if err := r.junit(&out, time.Second); err != nil {
			t.Fatalf("junit: %v", err)
		}
		var j junitSuites
		if err := xml.Unmarshal(out.Bytes(), &j); err != nil {
			t.Fatalf("junit is not well-formed XML: %v\n%s", err, out.Bytes())
		}
		tests, fails := 0, 0
		for _, s := range j.Suites {
			if s.Tests != len(s.Cases) {
				t.Fatalf("suite %q: tests=%d but %d cases", s.Name, s.Tests, len(s.Cases))
			}
			tests += s.Tests
			fails += s.Fails
		}
		if tests != j.Tests || fails != j.Fails {
			t.Fatalf("totals %d/%d, suites add up to %d/%d", j.Tests, j.Fails, tests, fails)
		}
		failedTest := false
		for _, p := range r.pkgs {
			if p.out.Len() > maxOutput+64 {
				t.Fatalf("package %q keeps %d bytes of output", p.name, p.out.Len())
			}
			for _, c := range p.tests {
				failedTest = failedTest || c.action == "fail"
				if c.out.Len() > maxOutput+64 {
					t.Fatalf("test %q keeps %d bytes of output", c.name, c.out.Len())
				}
			}
		}
		if (failedTest || fails > 0) && !r.failed() {
			t.Fatalf("a failure in the JUnit report, but the run passes")
		}
		if !strings.HasPrefix(r.status(time.Unix(60, 0)), "STATUS 1m0s: ") {
			t.Fatalf("status %q", r.status(time.Unix(60, 0)))
		}
		_ = r.skipSummary()
		if !strings.HasPrefix(r.summary(time.Second), "DONE ") {
			t.Fatalf("summary %q", r.summary(time.Second))
		}
	})
}
