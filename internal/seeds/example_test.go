package seeds_test

import (
	"fmt"

	"github.com/toolout/toolout/internal/seeds"
)

// Outputs reads each scenario's tool output: given as text, read from a
// file beside the scenario, or a generated one's template repeated (here
// testdata/example/a.yaml generates 1,000 lines of "line"; three are kept).
func ExampleOutputs() {
	outs, err := seeds.Outputs("testdata/example", 3)
	fmt.Printf("%q %v\n", outs, err)
	// Output:
	// ["line\nline\nline\n"] <nil>
}
