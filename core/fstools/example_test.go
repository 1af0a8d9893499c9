package fstools_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolout/toolout/core/fstools"
)

// Read and Grep over a session directory: paths stay under the root, and
// a path that leaves it is refused.
func ExampleFS() {
	dir, err := os.MkdirTemp("", "fstools-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	log := "GET /a 200\nGET /b 500\nGET /c 200\nPOST /d 500\n"
	if err := os.WriteFile(filepath.Join(dir, "output.txt"), []byte(log), 0o600); err != nil {
		fmt.Println(err)
		return
	}
	fs, err := fstools.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fs.Close()

	two := 2
	out, _ := fs.Read(fstools.ReadParams{Path: "output.txt", Offset: 1, Limit: &two})
	fmt.Print(out)
	out, _ = fs.Grep(fstools.GrepParams{Pattern: " 500$", Path: "output.txt"})
	fmt.Print(out)
	_, err = fs.Read(fstools.ReadParams{Path: "../secret"})
	fmt.Println(err)
	// Output:
	// GET /b 500
	// GET /c 200
	// 2:GET /b 500
	// 4:POST /d 500
	// path "../secret": refused: ".." is not allowed; paths stay under the root
}
