package depcheck_test

import (
	"fmt"

	"github.com/toolout/toolout/internal/depcheck"
)

func ExampleForbidden() {
	for _, p := range []string{"github.com/toolout/toolout/fakes", "github.com/onsi/ginkgo/v2", "github.com/toolout/toolout/core/store", "github.com/toolout/toolout/harnessx"} {
		fmt.Println(p, depcheck.Forbidden.MatchString(p))
	}
	// Output:
	// github.com/toolout/toolout/fakes true
	// github.com/onsi/ginkgo/v2 true
	// github.com/toolout/toolout/core/store false
	// github.com/toolout/toolout/harnessx false
}
