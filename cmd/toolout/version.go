package main

import (
	"context"
	"flag"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionLeaf prints the version line (versionLine of this binary's build
// information).
func versionLeaf() leaf {
	return leaf{name: "version", summary: "print the module version, the VCS revision it was built from, and the Go version",
		setup: func(*flag.FlagSet) leafFunc {
			return func(context.Context, *call) (any, error) {
				bi, _ := debug.ReadBuildInfo()
				return plainText(versionLine(bi)), nil
			}
		}}
}

// isVersionFlag reports whether arg asks for the version as a flag:
// --version or -version (toolout version prints the same).
func isVersionFlag(arg string) bool { return arg == "--version" || arg == "-version" }

// versionLine is `toolout version`'s one line, from build information bi
// (nil: none):
//
//	toolout VERSION [(rev REVISION, TIME[, modified])] GOVERSION GOOS/GOARCH
//
// VERSION is the main module's: built in a git checkout, the pseudo-version
// the go command derives from its commit (v0.0.0-20261128040845-52d7a6db8d06,
// +dirty when modified), "(devel)" without a VCS stamp (a git worktree,
// -buildvcs=false); for a module that requires toolout (go get -tool), the
// version it requires (v0.0.0-00010101000000-000000000000 through a
// replace directive). The parenthesis gives the VCS stamp when the build
// has one: the revision's first 12 characters, the commit time, and
// "modified" when the tree had uncommitted changes.
func versionLine(bi *debug.BuildInfo) string {
	version, goVersion := "(devel)", runtime.Version()
	var rev, at string
	modified := false
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value[:min(12, len(s.Value))]
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	parts := []string{"toolout", version}
	if rev != "" {
		stamp := []string{"rev " + rev}
		if at != "" {
			stamp = append(stamp, at)
		}
		if modified {
			stamp = append(stamp, "modified")
		}
		parts = append(parts, "("+strings.Join(stamp, ", ")+")")
	}
	return strings.Join(append(parts, goVersion, runtime.GOOS+"/"+runtime.GOARCH), " ")
}
