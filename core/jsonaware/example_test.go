package jsonaware_test

import (
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/jsonaware"
)

// Shorten a tool's JSON answer of 40 log records, one of them an error, to
// 600 bytes: every key is kept, the long message is cut with a count, and
// the array keeps as many first and last rows as fit (four each side here,
// KeepRows being the fewest before the late steps), the error row, and a
// marker for each run of rows cut. Input that is not JSON is an error with
// its position, for the caller to fall back.
func ExampleShorten() {
	var b strings.Builder
	b.WriteString(`{"query":"deploy","records":[`)
	for i := range 40 {
		level, msg := "info", "step ok"
		if i == 23 {
			level, msg = "error", "rollout failed: "+strings.Repeat("pod crashloop; ", 20)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"seq":%d,"level":%q,"msg":%q}`, i, level, msg)
	}
	b.WriteString(`],"total":40}`)

	out, st, err := jsonaware.Shorten([]byte(b.String()), 600, jsonaware.Options{MaxStringBytes: 64, KeepRows: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	fmt.Printf("%d -> %d bytes: %d rows cut, %d error-like kept, %d string cut by %d bytes\n",
		st.InBytes, st.OutBytes, st.RowsCut, st.ErrorRowsKept, st.StringsShortened, st.BytesCut)

	_, _, err = jsonaware.Shorten([]byte(`{"a": [1, 2,]}`), 600, jsonaware.Options{})
	fmt.Println(err)
	// Output:
	// {"query":"deploy","records":[{"seq":0,"level":"info","msg":"step ok"},{"seq":1,"level":"info","msg":"step ok"},{"seq":2,"level":"info","msg":"step ok"},{"seq":3,"level":"info","msg":"step ok"},"[… 19 rows cut …]",{"seq":23,"level":"error","msg":"rollout failed: pod crashloop; pod crashloop; pod crashloop; pod… [+252 bytes]"},"[… 12 rows cut …]",{"seq":36,"level":"info","msg":"step ok"},{"seq":37,"level":"info","msg":"step ok"},{"seq":38,"level":"info","msg":"step ok"},{"seq":39,"level":"info","msg":"step ok"}],"total":40}
	// 2021 -> 537 bytes: 31 rows cut, 1 error-like kept, 1 string cut by 252 bytes
	// jsonaware: invalid JSON at 1:13 (byte 12): unexpected ']', looking for a value
}
