package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ev renders one go test -json event.
func ev(action, pkg, test, output string, elapsed float64) string {
	b, err := json.Marshal(event{Action: action, Package: pkg, Test: test, Output: output, Elapsed: elapsed})
	Expect(err).NotTo(HaveOccurred())
	return string(b) + "\n"
}

const pkgA = "github.com/toolout/toolout/core/a"

// convert runs testreport on stream and returns its exit status, console
// and parsed JUnit report.
func convert(stream string) (int, string, junitSuites) {
	dir := GinkgoT().TempDir()
	xmlPath, jsonPath := filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.json")
	var out, errb bytes.Buffer
	code := run([]string{"--junit", xmlPath, "--json", jsonPath}, strings.NewReader(stream), &out, &errb, still())
	copied, err := os.ReadFile(jsonPath)
	Expect(err).NotTo(HaveOccurred())
	Expect(string(copied)).To(Equal(stream), "--json keeps the stream as it came")
	data, err := os.ReadFile(xmlPath)
	Expect(err).NotTo(HaveOccurred())
	var j junitSuites
	Expect(xml.Unmarshal(data, &j)).To(Succeed(), "the JUnit file is well-formed XML")
	return code, out.String() + errb.String(), j
}

var _ = Describe("testreport", func() {
	It("prints a line per package, not per passing or skipped test, ends with DONE, and writes a suite per package", func() {
		stream := ev("start", pkgA, "", "", 0) +
			ev("run", pkgA, "TestOne", "", 0) + ev("output", pkgA, "TestOne", "=== RUN TestOne\n", 0) +
			ev("pass", pkgA, "TestOne", "", 0.25) +
			ev("run", pkgA, "TestTwo", "", 0) + ev("skip", pkgA, "TestTwo", "", 0) +
			ev("output", pkgA, "", "ok\n", 0) + ev("pass", pkgA, "", "", 0.5) +
			ev("start", "github.com/toolout/toolout/internal/x", "", "", 0) +
			ev("skip", "github.com/toolout/toolout/internal/x", "", "", 0)
		code, out, j := convert(stream)
		Expect(code).To(Equal(0))
		Expect(out).To(HavePrefix("PASS core/a (0.50s, 2 tests, 1 skipped)\nEMPTY internal/x\n" +
			"SKIPPED 1 tests and specs, by reason:\n  1 core/a: (no reason given)\nDONE 2 tests, 1 skipped in "))
		Expect(j.Tests).To(Equal(2))
		Expect(j.Fails).To(Equal(0))
		Expect(j.Suites).To(HaveLen(2))
		Expect(j.Suites[0].Name).To(Equal(pkgA))
		Expect(j.Suites[0].Cases).To(HaveLen(2))
		Expect(j.Suites[0].Cases[0]).To(Equal(junitCase{Class: pkgA, Name: "TestOne", Time: "0.250"}))
		Expect(j.Suites[0].Cases[1].Skipped).NotTo(BeNil())
	})

	It("prints a failed test's output and exits 1; the JUnit case carries it", func() {
		stream := ev("run", pkgA, "TestBad", "", 0) +
			ev("output", pkgA, "TestBad", "    bad_test.go:9: got 1, want 2\n", 0) +
			ev("fail", pkgA, "TestBad", "", 0.01) + ev("fail", pkgA, "", "", 0.02)
		code, out, j := convert(stream)
		Expect(code).To(Equal(1))
		Expect(out).To(ContainSubstring("=== FAIL core/a.TestBad (0.01s)\n    bad_test.go:9: got 1, want 2\nFAIL core/a (0.02s)\n"))
		Expect(out).To(ContainSubstring("DONE 1 tests, 1 failures in "))
		Expect(j.Fails).To(Equal(1))
		Expect(j.Suites[0].Cases[0].Failure.Text).To(Equal("    bad_test.go:9: got 1, want 2\n"))
	})

	It("gives a package that failed outside its tests (a panic, a timeout) a failed case of its own", func() {
		stream := ev("run", pkgA, "TestOne", "", 0) + ev("pass", pkgA, "TestOne", "", 0) +
			ev("output", pkgA, "", "panic: test timed out after 10m0s\n", 0) + ev("fail", pkgA, "", "", 600)
		code, out, j := convert(stream)
		Expect(code).To(Equal(1))
		Expect(out).To(ContainSubstring("FAIL core/a (600.00s)\npanic: test timed out after 10m0s\n"))
		Expect(j.Fails).To(Equal(1))
		last := j.Suites[0].Cases[1]
		Expect(last.Name).To(Equal("(package)"))
		Expect(last.Failure.Message).To(Equal("package failed"))
		Expect(last.Failure.Text).To(ContainSubstring("timed out"))
	})

	It("prints a build failure and reports the package as failed to build", func() {
		build, _ := json.Marshal(event{ImportPath: pkgA + " [" + pkgA + ".test]", Action: "build-output", Output: "core/a/a.go:3:1: syntax error\n"})
		fail, _ := json.Marshal(event{ImportPath: pkgA + " [" + pkgA + ".test]", Action: "build-fail"})
		pf, _ := json.Marshal(event{Action: "fail", Package: pkgA, FailedBuild: pkgA + " [" + pkgA + ".test]"})
		code, out, j := convert(string(build) + "\n" + string(fail) + "\n" + ev("start", pkgA, "", "", 0) + string(pf) + "\n")
		Expect(code).To(Equal(1))
		Expect(out).To(HavePrefix("core/a/a.go:3:1: syntax error\nFAIL core/a (0.00s)\n"))
		Expect(j.Suites[0].Cases[0].Failure.Message).To(Equal("build failed"))
	})

	It("fails a stream that was cut, naming the packages that never finished, and one with no package", func() {
		code, out, j := convert(ev("start", pkgA, "", "", 0) + ev("run", pkgA, "TestHang", "", 0))
		Expect(code).To(Equal(1))
		Expect(out).To(ContainSubstring("; 1 package(s) never finished: core/a"))
		Expect(j.Suites[0].Cases[0].Failure.Message).To(Equal("did not finish"))
		code, out, _ = convert("")
		Expect(code).To(Equal(1))
		Expect(out).To(ContainSubstring("DONE 0 tests in "))
		Expect(out).To(ContainSubstring("; no package was tested"))
	})

	It("fails a run with a test that never ended, even when its package passed (found by FuzzReport)", func() {
		code, _, j := convert(ev("run", pkgA, "TestLost", "", 0) + ev("pass", pkgA, "", "", 0))
		Expect(code).To(Equal(1))
		Expect(j.Fails).To(Equal(1))
		code, out, _ := convert(ev("run", pkgA, "BenchmarkX", "", 0) + ev("bench", pkgA, "BenchmarkX", "", 0) + ev("pass", pkgA, "", "", 0))
		Expect(code).To(Equal(0))
		Expect(out).To(HavePrefix("PASS core/a (0.00s, 1 tests)\n"))
	})

	It("prints lines that are not events as they came (go test's own errors)", func() {
		code, out, _ := convert("flag provided but not defined: -x\n" + ev("pass", pkgA, "", "", 0))
		Expect(code).To(Equal(0))
		Expect(out).To(HavePrefix("flag provided but not defined: -x\nPASS core/a (0.00s, 0 tests)\n"))
	})

	It("keeps the last 64 KiB of a test's output, and writes control characters as valid XML", func() {
		var stream strings.Builder
		stream.WriteString(ev("run", pkgA, "TestLoud", "", 0))
		for range 2000 {
			stream.WriteString(ev("output", pkgA, "TestLoud", strings.Repeat("x", 1000)+"\n", 0))
		}
		stream.WriteString(ev("output", pkgA, "TestLoud", "\x1b[31mthe end\x1b[0m\x00\n", 0))
		stream.WriteString(ev("fail", pkgA, "TestLoud", "", 0) + ev("fail", pkgA, "", "", 0))
		code, out, j := convert(stream.String())
		Expect(code).To(Equal(1))
		Expect(len(out)).To(BeNumerically("<", 70<<10))
		text := j.Suites[0].Cases[0].Failure.Text
		Expect(len(text)).To(BeNumerically("<=", maxOutput))
		Expect(text).To(HavePrefix("... (earlier output dropped)\n"))
		Expect(text).To(ContainSubstring("the end"))
	})

	It("reads the rest of a stream with a line over 16 MiB, fails, and keeps the whole copy", func() {
		long := `{"Action":"output","Output":"` + strings.Repeat("y", maxLine) + `"}` + "\n"
		code, out, _ := convert(long + ev("pass", pkgA, "", "", 0))
		Expect(code).To(Equal(1))
		Expect(out).To(ContainSubstring("testreport: reading go test -json: bufio.Scanner: token too long"))
	})

	It("refuses arguments: the stream comes on standard input", func() {
		var out, errb bytes.Buffer
		Expect(run([]string{"x.json"}, strings.NewReader(""), &out, &errb, still())).To(Equal(2))
		Expect(errb.String()).To(Equal("testreport: unexpected argument \"x.json\"; the stream comes on standard input\n"))
	})
})
