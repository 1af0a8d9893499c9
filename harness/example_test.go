package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolout/toolout/harness"
)

// Register a component of your own and run a scenario of it. The harness
// decodes the scenario's config, input and expect into the component's
// types (strictly: an unknown key is an error at its line), runs it,
// renders the transcript and checks the expectations; a failure names
// the line and column of the expectation that did not hold.
func ExampleRegister() {
	type config struct {
		Prefix string `yaml:"prefix"`
	}
	type input struct {
		Text string `yaml:"text"`
	}
	type expect struct {
		Equals string `yaml:"equals"`
	}
	reg := harness.NewRegistry()
	harness.Register(reg, harness.Spec[config, input, expect, string]{
		Name:     "upper",
		Doc:      "upper-cases its input after a prefix",
		Defaults: func(c *config) { c.Prefix = "> " },
		Run: func(_ context.Context, _ *harness.Env, c *config, in *input) (string, error) {
			return c.Prefix + strings.ToUpper(in.Text), nil
		},
		Check: func(e *expect, got string) []harness.Mismatch {
			if got != e.Equals {
				return []harness.Mismatch{{Field: "equals", Msg: fmt.Sprintf("got %q", got)}}
			}
			return nil
		},
	})

	dir, err := os.MkdirTemp("", "harness-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "shout.yaml")
	scenario := "component: upper\ninput: {text: hello}\nexpect: {equals: 'HELLO'}\n"
	if err := os.WriteFile(file, []byte(scenario), 0o600); err != nil {
		fmt.Println(err)
		return
	}
	runner := &harness.Runner{Registry: reg}
	sc, err := runner.Load(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := runner.Execute(context.Background(), sc)
	fmt.Println(res.Passed())
	for _, f := range res.Failures {
		fmt.Println(strings.TrimPrefix(f, dir+string(filepath.Separator)))
	}
	// Output:
	// false
	// shout.yaml:3:10: expect.equals: got "> HELLO"
}
