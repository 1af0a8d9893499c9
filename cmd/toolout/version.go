package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func runVersion(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", stderr)
	if _, err := parseFlags(fs, args); err != nil {
		return usageError(fs, stderr, err)
	}
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	fmt.Fprintf(stdout, "toolout %s %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}
