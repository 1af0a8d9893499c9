package harness_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// scenarioRoot is the bundled scenarios folder, seen from this package.
const scenarioRoot = "../scenarios"

// scenarioEntries turns every scenario file into a table entry, labelled with
// its labels and located at its YAML line. A file that does not load still
// becomes an entry, which fails with the positioned errors.
func scenarioEntries(runner *harness.Runner) []TableEntry {
	files, err := harness.Discover(scenarioRoot)
	if err != nil {
		panic(err)
	}
	var entries []TableEntry
	for _, f := range files {
		id, _, _ := harness.Layout(f)
		abs, _ := filepath.Abs(f)
		loc := types.CodeLocation{FileName: abs, LineNumber: 1}
		args := []any{}
		if sc, err := runner.Load(f); err == nil {
			loc.LineNumber = sc.Line
			if len(sc.Labels) > 0 {
				args = append(args, Label(sc.Labels...))
			}
		}
		args = append(args, loc, f)
		entries = append(entries, Entry(id, args...))
	}
	return entries
}

var _ = Describe("bundled scenarios", func() {
	runner := harness.RunnerFromEnv(components.Default())
	// A failure names the command that accepts its transcript from
	// anywhere in this module: go run of the command by its import path,
	// on the scenario's absolute path (go test runs in harness/).
	runner.Command = "go run github.com/toolout/toolout/cmd/toolout"

	DescribeTable("scenario",
		func(file string) {
			abs, err := filepath.Abs(file)
			Expect(err).NotTo(HaveOccurred())
			sc, err := runner.Load(abs)
			Expect(err).NotTo(HaveOccurred(), "the scenario file does not load")
			first := runner.Execute(context.Background(), sc)
			second := runner.Execute(context.Background(), sc)
			Expect(string(second.Transcript)).To(Equal(string(first.Transcript)), "two runs of the same scenario gave different transcripts")
			runner.Golden(first)
			for _, n := range first.Notes {
				AddReportEntry(n)
			}
			if !first.Passed() {
				Fail(strings.Join(first.Failures, "\n"))
			}
		},
		scenarioEntries(runner),
	)

	It("gives the same bytes in shuffled order and in parallel", func() {
		files, err := harness.Discover(scenarioRoot)
		Expect(err).NotTo(HaveOccurred())
		var scenarios []*harness.Scenario
		for _, f := range files {
			if sc, err := runner.Load(f); err == nil {
				scenarios = append(scenarios, sc)
			}
		}
		Expect(scenarios).NotTo(BeEmpty())
		want := make([][]byte, len(scenarios))
		for i, sc := range scenarios {
			want[i] = runner.Execute(context.Background(), sc).Transcript
		}
		got := make([][]byte, len(scenarios))
		var wg sync.WaitGroup
		for _, i := range rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), 1)).Perm(len(scenarios)) {
			wg.Go(func() { got[i] = runner.Execute(context.Background(), scenarios[i]).Transcript })
		}
		wg.Wait()
		for i, sc := range scenarios {
			Expect(string(got[i])).To(Equal(string(want[i])), sc.ID)
		}
	})
})
