package main

import (
	"context"
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

// runRead prints what the Read tool answers for PATH under --root.
func runRead(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("read", "--root DIR PATH [--offset N --limit N]", stderr)
	root := fs.String("root", "", "the directory Read is confined to (required)")
	offset := fs.Int("offset", 0, "first line, 0-based")
	limit := fs.Int("limit", 0, "number of lines (0: to the end, with the size check)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *root == "" || len(pos) != 1 {
		fmt.Fprintln(stderr, "toolout read: want --root DIR and one PATH")
		return exitUsage
	}
	// The path is checked before the root is opened, so a refused path is
	// named even when the root does not exist.
	if _, err := fstools.CheckPath(pos[0]); err != nil {
		fmt.Fprintf(stderr, "toolout read: %v\n", err)
		return exitUsage
	}
	fsys, err := fstools.Open(*root)
	if err != nil {
		fmt.Fprintf(stderr, "toolout read: %v\n", err)
		return exitUsage
	}
	defer fsys.Close()
	p := fstools.ReadParams{Path: pos[0], Offset: *offset}
	if *limit != 0 {
		p.Limit = limit
	}
	out, err := fsys.Read(p)
	if err != nil {
		fmt.Fprintf(stderr, "toolout read: %v\n", err)
		return exitUsage
	}
	return printToolResult(stdout, out)
}

// runGrep prints what the Grep tool answers for PATTERN in PATH under --root.
func runGrep(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("grep", "--root DIR PATTERN [PATH] [--context N --max-results N]", stderr)
	root := fs.String("root", "", "the directory Grep is confined to (required)")
	ctxLines := fs.Int("context", 0, "lines shown before and after each match")
	maxResults := fs.Int("max-results", fstools.DefaultMaxResults, "most matching lines listed")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *root == "" || len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintln(stderr, "toolout grep: want --root DIR, a PATTERN and at most one PATH")
		return exitUsage
	}
	if len(pos) == 2 {
		if _, err := fstools.CheckPath(pos[1]); err != nil {
			fmt.Fprintf(stderr, "toolout grep: %v\n", err)
			return exitUsage
		}
	}
	fsys, err := fstools.Open(*root)
	if err != nil {
		fmt.Fprintf(stderr, "toolout grep: %v\n", err)
		return exitUsage
	}
	defer fsys.Close()
	p := fstools.GrepParams{Pattern: pos[0], Context: *ctxLines, MaxResults: *maxResults}
	if len(pos) == 2 {
		p.Path = pos[1]
	}
	out, err := fsys.Grep(p)
	if err != nil {
		fmt.Fprintf(stderr, "toolout grep: %v\n", err)
		return exitUsage
	}
	return printToolResult(stdout, out)
}
