package headtail_test

import (
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/headtail"
)

// Cut a 100-line build log with a stack trace in the middle to 600 bytes:
// the head, the exception with its frames, and the tail, each run of cut
// lines replaced by a marker that counts it.
func ExampleCut() {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "step %02d ok\n", i)
		if i == 40 {
			b.WriteString("java.lang.IllegalStateException: pool exhausted\n\tat com.acme.Pool.take(Pool.java:42)\n")
		}
	}
	out, st := headtail.Cut(b.String(), 600, headtail.Options{})
	fmt.Print(out)
	fmt.Printf("%d of %d bytes, %d error-like lines kept, %d lines cut\n", len(out), b.Len(), st.ErrorLinesKept, st.LinesCut)
	// Output:
	// step 00 ok
	// step 01 ok
	// step 02 ok
	// step 03 ok
	// step 04 ok
	// step 05 ok
	// [... 35 lines (385 bytes) cut; 1 error-like line kept below ...]
	// java.lang.IllegalStateException: pool exhausted
	// 	at com.acme.Pool.take(Pool.java:42)
	// [... 28 lines (308 bytes) cut ...]
	// step 69 ok
	// step 70 ok
	// step 71 ok
	// step 72 ok
	// step 73 ok
	// step 74 ok
	// step 75 ok
	// step 76 ok
	// step 77 ok
	// step 78 ok
	// step 79 ok
	// step 80 ok
	// step 81 ok
	// step 82 ok
	// step 83 ok
	// step 84 ok
	// step 85 ok
	// step 86 ok
	// step 87 ok
	// step 88 ok
	// step 89 ok
	// step 90 ok
	// step 91 ok
	// step 92 ok
	// step 93 ok
	// step 94 ok
	// step 95 ok
	// step 96 ok
	// step 97 ok
	// step 98 ok
	// step 99 ok
	// 592 of 1185 bytes, 1 error-like lines kept, 63 lines cut
}
