package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolout/toolout/core/fstools"
)

// printToolResult prints what a model would see. A size-validation error
// (the spec's "Error: …" text) is printed the same way and exits 1.
func printToolResult(stdout io.Writer, out string) int {
	fmt.Fprint(stdout, out)
	if !strings.HasSuffix(out, "\n") {
		fmt.Fprintln(stdout)
	}
	if strings.HasPrefix(out, "Error: ") {
		return exitFailed
	}
	return exitOK
}

// openRoot checks the paths first, so that a refused path is named even
// when the root does not exist, then opens the root.
func openRoot(root string, paths ...string) (*fstools.FS, error) {
	for _, p := range paths {
		if _, err := fstools.CheckPath(p); err != nil {
			return nil, err
		}
	}
	return fstools.Open(root)
}

// readLeaf prints what the Read tool answers for PATH under --root.
func readLeaf() leaf {
	return leaf{name: "read", summary: "read a file confined to a root, as the Read tool answers a model",
		synopsis: "--root DIR PATH [--offset N --limit N]",
		setup: func(fs *flag.FlagSet) leafFunc {
			root := fs.String("root", "", "the directory Read is confined to (required)")
			offset := fs.Int("offset", 0, "first line, 0-based")
			limit := fs.Int("limit", 0, "number of lines (0: to the end, with the size check)")
			return func(_ context.Context, c *call) (any, error) {
				if *root == "" || len(c.args) != 1 {
					return nil, errors.New("want --root DIR and one PATH")
				}
				fsys, err := openRoot(*root, c.args[0])
				if err != nil {
					return nil, err
				}
				defer fsys.Close()
				p := fstools.ReadParams{Path: c.args[0], Offset: *offset}
				if *limit != 0 {
					p.Limit = limit
				}
				out, err := fsys.Read(p)
				return toolText(out), err
			}
		}}
}

// grepLeaf prints what the Grep tool answers for PATTERN in PATH under
// --root.
func grepLeaf() leaf {
	return leaf{name: "grep", summary: "search files confined to a root, as the Grep tool answers a model",
		synopsis: "--root DIR PATTERN [PATH] [--context N --max-results N]",
		setup: func(fs *flag.FlagSet) leafFunc {
			root := fs.String("root", "", "the directory Grep is confined to (required)")
			ctxLines := fs.Int("context", 0, "lines shown before and after each match")
			maxResults := fs.Int("max-results", fstools.DefaultMaxResults, "most matching lines listed")
			return func(_ context.Context, c *call) (any, error) {
				if *root == "" || len(c.args) < 1 || len(c.args) > 2 {
					return nil, errors.New("want --root DIR, a PATTERN and at most one PATH")
				}
				fsys, err := openRoot(*root, c.args[1:]...)
				if err != nil {
					return nil, err
				}
				defer fsys.Close()
				p := fstools.GrepParams{Pattern: c.args[0], Context: *ctxLines, MaxResults: *maxResults}
				if len(c.args) == 2 {
					p.Path = c.args[1]
				}
				out, err := fsys.Grep(p)
				return toolText(out), err
			}
		}}
}
