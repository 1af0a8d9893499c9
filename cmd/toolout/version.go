package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

// versionLeaf prints the module version, the Go version and the platform.
func versionLeaf() leaf {
	return leaf{name: "version", summary: "print the version",
		setup: func(*flag.FlagSet) leafFunc {
			return func(context.Context, *call) (any, error) {
				v := "(devel)"
				if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
					v = bi.Main.Version
				}
				return plainText(fmt.Sprintf("toolout %s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)), nil
			}
		}}
}
