package main

import (
	"runtime"
	"runtime/debug"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout version", func() {
	platform := " " + runtime.GOOS + "/" + runtime.GOARCH
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	DescribeTable("prints one line from the build information",
		func(bi *debug.BuildInfo, want string) {
			Expect(versionLine(bi)).To(Equal(want + platform))
		},
		Entry("a clone's build with its commit, tree changed",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "(devel)"},
				Settings: vcs("vcs", "git", "vcs.revision", "b1741cb0a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6", "vcs.time", "2026-11-28T03:58:00Z", "vcs.modified", "true")},
			"toolout (devel) (rev b1741cb0a1c2, 2026-11-28T03:58:00Z, modified) go1.26.8"),
		Entry("a clean tree",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
				Settings: vcs("vcs.revision", "b1741cb", "vcs.modified", "false")},
			"toolout (devel) (rev b1741cb) go1.26.8"),
		Entry("go install MODULE@VERSION or go get -tool: a pseudo-version, no VCS stamp",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261128035800-b1741cb0a1c2"}},
			"toolout v0.0.0-20261128035800-b1741cb0a1c2 go1.26.8"),
		Entry("a tag", &debug.BuildInfo{GoVersion: "go1.27", Main: debug.Module{Version: "v1.2.3"}}, "toolout v1.2.3 go1.27"),
		Entry("no build information", nil, "toolout (devel) "+runtime.Version()),
	)

	It("answers version, --version and -version alike, on one line", func() {
		want := succeeds("", "version")
		Expect(want).To(MatchRegexp(`^toolout \S+ .*go\S* \S+/\S+\n$`))
		Expect(succeeds("", "--version")).To(Equal(want))
		Expect(succeeds("", "-version")).To(Equal(want))
	})
})
