package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// writeSuite writes a Ginkgo JUnit report of a suite in folder (relative to
// the working directory) as internal/junit does, with Ginkgo's own writer:
// a spec per state, a skipped one with its Skip message.
func writeSuite(dir, file, folder string, specs ...types.SpecReport) {
	cwd, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	path := ""
	if folder != "" {
		path = filepath.Join(cwd, folder)
	}
	rep := types.Report{SuiteDescription: file, SuitePath: path, SpecReports: specs}
	Expect(reporters.GenerateJUnitReportWithConfig(rep, filepath.Join(dir, file+".xml"),
		reporters.JunitReportConfig{OmitTimelinesForSpecState: types.SpecStatePassed})).To(Succeed())
}

func spec(state types.SpecState, message string) types.SpecReport {
	return types.SpecReport{LeafNodeText: "a spec", LeafNodeType: types.NodeTypeIt, State: state,
		Failure: types.Failure{Message: message}}
}

var _ = Describe("the skipped summary", func() {
	const redis = "redis-server is not on PATH: apt-get install -y redis-server"

	It("groups skipped Ginkgo specs and Go tests by where and why, the largest group first, before DONE", func() {
		dir := GinkgoT().TempDir()
		writeSuite(dir, "core-gateway-redisstore", "core/gateway/redisstore",
			spec(types.SpecStateSkipped, redis), spec(types.SpecStateSkipped, redis),
			spec(types.SpecStatePassed, ""), spec(types.SpecStateSkipped, redis))
		writeSuite(dir, "cmd-toolout", "cmd/toolout",
			spec(types.SpecStateSkipped, "node is not on PATH"), spec(types.SpecStatePending, ""),
			spec(types.SpecStateSkipped, ""), spec(types.SpecStateFailed, "boom"))
		writeSuite(dir, "elsewhere", "", spec(types.SpecStateSkipped, redis))
		stream := ev("run", pkgA, "TestUnicode", "", 0) + ev("output", pkgA, "TestUnicode", "=== RUN   TestUnicode\n", 0) +
			ev("output", pkgA, "TestUnicode", "    unicode_internal_test.go:63: Go's unicode tables are 17.0.0 now\n", 0) +
			ev("output", pkgA, "TestUnicode", "--- SKIP: TestUnicode (0.00s)\n", 0) + ev("skip", pkgA, "TestUnicode", "", 0) +
			ev("pass", pkgA, "", "", 0)
		var out, errb bytes.Buffer
		code := run([]string{"--specs", dir}, strings.NewReader(stream), &out, &errb, still())
		Expect(code).To(Equal(0), "a skip fails nothing")
		Expect(out.String()).To(Equal("PASS core/a (0.00s, 1 tests, 1 skipped)\n" +
			"SKIPPED 8 tests and specs, by reason:\n" +
			"  3 core/gateway/redisstore: " + redis + "\n" +
			"  1 cmd/toolout: (no reason given)\n" +
			"  1 cmd/toolout: node is not on PATH\n" +
			"  1 cmd/toolout: pending\n" +
			"  1 core/a: Go's unicode tables are 17.0.0 now\n" +
			"  1 elsewhere: " + redis + "\n" +
			"DONE 1 tests, 1 skipped in 0.0s\n"))
		Expect(errb.String()).To(BeEmpty())
	})

	It("lists 20 reasons at most and counts the rest", func() {
		r := newReport(&bytes.Buffer{}, still().now)
		for i := range 25 {
			for range 25 - i {
				r.skips = append(r.skips, skip{where: "core/a", reason: fmt.Sprintf("reason %02d", i)})
			}
		}
		lines := strings.Split(strings.TrimSuffix(r.skipSummary(), "\n"), "\n")
		Expect(lines).To(HaveLen(22))
		Expect(lines[0]).To(Equal("SKIPPED 325 tests and specs, by reason:"))
		Expect(lines[1]).To(Equal("  25 core/a: reason 00"))
		Expect(lines[20]).To(Equal("  6 core/a: reason 19"))
		Expect(lines[21]).To(Equal("  ... and 5 more reasons (15 skipped): see the JUnit reports"))
	})

	It("names a report it cannot read, still lists the others' skips, and does not fail the run for it", func() {
		dir := GinkgoT().TempDir()
		writeSuite(dir, "core-store", "core/store", spec(types.SpecStateSkipped, redis))
		bad := filepath.Join(dir, "broken.xml")
		Expect(os.WriteFile(bad, []byte("<testsuites><testsuite"), 0o644)).To(Succeed())
		var out, errb bytes.Buffer
		code := run([]string{"--specs", dir}, strings.NewReader(ev("pass", pkgA, "", "", 0)), &out, &errb, still())
		Expect(code).To(Equal(0))
		Expect(out.String()).To(ContainSubstring("testreport: specs: " + bad + ": XML syntax error on line 1: unexpected EOF\n" +
			"SKIPPED 1 tests and specs, by reason:\n  1 core/store: " + redis + "\n"))
	})

	It("takes a Go test's reason from its output, without go test's lines and the file:line, cut at 300 bytes", func() {
		Expect(skipReason("=== RUN   TestX\n    x_test.go:12: no redis\n--- SKIP: TestX (0.00s)\n")).To(Equal("no redis"))
		Expect(skipReason("=== RUN   TestX\n--- SKIP: TestX (0.00s)\n")).To(Equal(noReason))
		Expect(skipReason("    see x.go:12 for why\n")).To(Equal("see x.go:12 for why"))
		Expect(skipReason("    x.go:: no line\n")).To(Equal("x.go:: no line"))
		long := skipReason("    x_test.go:1: " + strings.Repeat("y", 400) + "\n")
		Expect(long).To(Equal(strings.Repeat("y", 300) + "..."))
	})
})
