package components_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// Run one scenario with toolout's own components: a final-report wrapper
// parsed by the finalreport component.
func ExampleDefault() {
	dir, err := os.MkdirTemp("", "components-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "one.yaml")
	scenario := "component: finalreport\nconfig: {nonce: abc}\ninput:\n  text: '<ai-agent-abc-FINAL format=\"text\">done</ai-agent-abc-FINAL>'\n" +
		"expect: {found: true, content: done, closed: true}\n"
	if err := os.WriteFile(file, []byte(scenario), 0o600); err != nil {
		fmt.Println(err)
		return
	}
	runner := &harness.Runner{Registry: components.Default()}
	sc, err := runner.Load(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := runner.Execute(context.Background(), sc)
	fmt.Println(components.Default().Names())
	fmt.Println(res.Passed(), res.Failures)
	// Output:
	// [extract finalreport gateway leaked llm schema session store]
	// true []
}
