package seeds_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolout/toolout/internal/seeds"
)

// Outputs reads each scenario's tool output: given as text, read from a
// file beside the scenario, or a generated one's template repeated.
func ExampleOutputs() {
	dir, err := os.MkdirTemp("", "seeds-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	scenario := "component: extract\ninput:\n  output: {generate: {lines: 1000, template: 'line'}}\n"
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(scenario), 0o600); err != nil {
		fmt.Println(err)
		return
	}
	outs, err := seeds.Outputs(dir, 3)
	fmt.Printf("%q %v\n", outs, err)
	// Output:
	// ["line\nline\nline\n"] <nil>
}
