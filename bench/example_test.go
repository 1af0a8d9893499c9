package bench_test

import (
	"context"
	"fmt"
	"regexp"

	"github.com/toolout/toolout/bench"
	"github.com/toolout/toolout/fakes"
)

// A comparison answered by a model rather than the oracles: here a
// scripted one that reports every fact of whatever it is sent, in one
// step that answers any number of calls. Its read-grep sub-agent answers
// at once, without a tool call, so it finds nothing.
func ExampleCompareWith() {
	model, err := fakes.NewLLM([]fakes.Step{{Repeat: true, Respond: fakes.Respond{Oracle: &fakes.OracleSpec{
		Name: "grep-matches", Params: map[string]any{"pattern": bench.FactRE.String(), "unique": true, "in": "all"}}}}}, fakes.Options{})
	if err != nil {
		panic(err)
	}
	cases := bench.Corpus(bench.BudgetFor(bench.DefaultKnobs()), regexp.MustCompile(`^logs-10KB$`).MatchString)
	rows, err := bench.CompareWith(context.Background(), cases, bench.DefaultKnobs(), "default", model)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Printf("%-18s %d calls, %d/%d facts\n", r.Strategy, r.Calls, r.Found, r.Facts)
	}
	// Output:
	// truncate           1 calls, 3/3 facts
	// head-tail          1 calls, 3/3 facts
	// json-aware         1 calls, 3/3 facts
	// query              1 calls, 0/3 facts
	// in-tool-pagination 2 calls, 3/3 facts
	// full-chunked       2 calls, 3/3 facts
	// read-grep          2 calls, 0/3 facts
	// compress-expand    2 calls, 3/3 facts
	// auto               2 calls, 3/3 facts
}
