package redistest_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/toolout/toolout/internal/redistest"
)

// Start runs a real redis-server on a free loopback port, in a directory
// of its own; a spec skips with redistest.Missing when the binary is not on
// PATH. The output depends on the machine, so this example is compiled,
// not run.
func ExampleStart() {
	dir, _ := os.MkdirTemp("", "redis-")
	defer os.RemoveAll(dir)
	srv, err := redistest.Start(dir)
	if errors.Is(err, redistest.ErrMissing) {
		fmt.Println(redistest.Missing)
		return
	}
	if err != nil {
		panic(err)
	}
	defer srv.Stop()
	fmt.Println("redis at", srv.URL, "answers PING:", srv.Ping() == nil)
}
