package yamlstrict_test

import (
	"fmt"

	"github.com/toolout/toolout/internal/yamlstrict"
)

// A reader places the first character YAML refuses, and suggests the key
// an unknown one was meant to be.
func ExampleWalk() {
	src := []byte("pipes:\r\n  tool_output: {enabled: true}\n# bell \a\n")
	yamlstrict.Walk(src, func(c yamlstrict.Char) bool {
		if !yamlstrict.Printable(c.R) {
			fmt.Printf("%d:%d: U+%04X is not allowed in YAML\n", c.Line, c.Col, c.R)
			return false
		}
		return true
	})
	fmt.Println(yamlstrict.Nearest("stratgy", []string{"enabled", "strategy"}))
	// Output:
	// 3:8: U+0007 is not allowed in YAML
	// strategy
}
