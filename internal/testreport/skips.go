package main

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// skip is one skipped Go test or Ginkgo spec: where (a package, or a
// Ginkgo suite's folder) and why.
type skip struct{ where, reason string }

// maxReason bounds a reason as the summary prints it; maxGroups bounds the
// reasons it lists.
const (
	maxReason = 300
	maxGroups = 20
)

// maxSpecFile bounds a Ginkgo JUnit file read for its skipped specs.
const maxSpecFile = 64 << 20

// noReason stands for a skip that gave none: a Ginkgo spec filtered out,
// or not run after a failure, or a Skip with an empty message.
const noReason = "(no reason given)"

// cutLogPrefix drops the "x_test.go:12: " a t.Log or t.Skip line starts
// with.
func cutLogPrefix(line string) string {
	i := strings.Index(line, ".go:")
	if i <= 0 || strings.ContainsAny(line[:i], " \t") {
		return line
	}
	rest := line[i+len(".go:"):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || !strings.HasPrefix(rest[n:], ": ") {
		return line
	}
	return rest[n+2:]
}

// skipReason finds the reason of a Go test's skip in its output: the first
// line that is not go test's own (=== RUN, --- SKIP), without the file:line
// of the t.Skip call.
func skipReason(out string) string {
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "=== ") || strings.HasPrefix(line, "--- ") {
			continue
		}
		return clip(cutLogPrefix(line))
	}
	return noReason
}

func clip(s string) string {
	if len(s) <= maxReason {
		return s
	}
	n := maxReason
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// specReports is the part of a Ginkgo JUnit report (internal/junit) the
// summary reads.
type specReports struct {
	Suites []struct {
		Path  string `xml:"package,attr"` // the suite's folder (types.Report's SuitePath)
		Cases []struct {
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// readSpecSkips adds the skipped specs of every Ginkgo JUnit report in dir
// (reports/junit: the suites write them before their Go test ends, so they
// are whole once the stream is). A suite is named by its folder relative
// to base (its package attribute: Ginkgo's SuitePath), or by its file when it has none. A report that
// cannot be read is named in the error and the others are still read.
func (r *report) readSpecSkips(dir, base string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		return fmt.Errorf("specs: %w", err)
	}
	var errs []string
	for _, file := range files { // Glob sorts them
		if err := r.readSpecFile(file, base); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("specs: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (r *report) readSpecFile(file, base string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSpecFile+1))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > maxSpecFile {
		return fmt.Errorf("%s: over %d MiB", file, maxSpecFile>>20)
	}
	var rep specReports
	if err := xml.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for _, s := range rep.Suites {
		where := strings.TrimSuffix(filepath.Base(file), ".xml")
		if s.Path != "" {
			if rel, err := filepath.Rel(base, s.Path); err == nil && !strings.HasPrefix(rel, "..") {
				where = filepath.ToSlash(rel)
			}
		}
		for _, c := range s.Cases {
			if c.Skipped == nil {
				continue
			}
			reason, _ := strings.CutPrefix(c.Skipped.Message, "skipped - ")
			if reason == "skipped" || strings.TrimSpace(reason) == "" {
				reason = noReason
			}
			r.skips = append(r.skips, skip{where: where, reason: clip(reason)})
		}
	}
	return nil
}

// skipSummary lists the skips grouped by place and reason, the largest
// group first: "SKIPPED 9 tests and specs:" then a line per group. Empty
// when nothing was skipped.
func (r *report) skipSummary() string {
	if len(r.skips) == 0 {
		return ""
	}
	counts := map[skip]int{}
	for _, s := range r.skips {
		counts[s]++
	}
	groups := slices.Collect(maps.Keys(counts))
	slices.SortFunc(groups, func(a, b skip) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a.where, b.where), cmp.Compare(a.reason, b.reason))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "SKIPPED %d tests and specs, by reason:\n", len(r.skips))
	for i, g := range groups {
		if i == maxGroups {
			rest := 0
			for _, g := range groups[i:] {
				rest += counts[g]
			}
			fmt.Fprintf(&b, "  ... and %d more reasons (%d skipped): see the JUnit reports\n", len(groups)-i, rest)
			break
		}
		fmt.Fprintf(&b, "  %d %s: %s\n", counts[g], g.where, g.reason)
	}
	return b.String()
}
