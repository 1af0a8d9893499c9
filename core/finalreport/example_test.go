package finalreport_test

import (
	"fmt"

	"github.com/toolout/toolout/core/finalreport"
)

func ExampleParse() {
	answer := "<think>count per host</think>\n<ai-agent-n42-FINAL format=\"text\">\nweb-0: 58\nweb-1: 12\n"
	rep, err := finalreport.Parse(answer, "n42")
	if err != nil {
		panic(err)
	}
	fmt.Printf("found=%v closed=%v\n%s\n", rep.Found, rep.Closed, rep.Content)
	// Output:
	// found=true closed=false
	// web-0: 58
	// web-1: 12
}

func ExampleWrap() {
	fmt.Println(finalreport.Wrap("n42", "NO RELEVANT DATA FOUND"))
	// Output: <ai-agent-n42-FINAL format="text">NO RELEVANT DATA FOUND</ai-agent-n42-FINAL>
}
