package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// agentCheck is the real-agent check's folder; its node_modules (git-ignored)
// holds Claude Code, Codex CLI, the OpenAI Agents SDK and the Vercel AI SDK once
// `make agent-check` (npm ci --prefix scripts/agent-check) has run.
const agentCheck = "../../scripts/agent-check"

// agentCheckInstall is the command that installs the check's packages.
const agentCheckInstall = "`make agent-check` (npm ci --prefix scripts/agent-check: the pinned packages, about 900 MB, the network needed; " +
	".ci/run does it when node is present)"

// agentCheckNode returns node's path, or skips the spec when node or the
// check's packages are missing, naming the install command.
func agentCheckNode() string {
	node, err := exec.LookPath("node")
	if err != nil {
		Skip("node is not on PATH: the real-agent check (scripts/agent-check) needs node 20 or later")
	}
	for _, f := range []string{"@anthropic-ai/claude-code/bin/claude.exe", "@openai/codex/bin/codex.js", "@openai/agents/package.json", "ai/package.json",
		"@ai-sdk/openai/package.json", "@ai-sdk/anthropic/package.json"} {
		if _, err := os.Stat(filepath.Join(agentCheck, "node_modules", f)); err != nil {
			Skip("the real agents are not installed in " + filepath.Join(agentCheck, "node_modules") + ": run " + agentCheckInstall)
		}
	}
	return node
}

var _ = Describe("scripts/agent-check: real agents against toolout serve, directly and through toolout gateway serve", Label("agents"), func() {
	It("passes every check: Claude Code, Codex CLI, the OpenAI Agents SDK and the Vercel AI SDK on bundled scenarios, and what Claude Code and Codex recorded imports", func() {
		node := agentCheckNode()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, filepath.Join(agentCheck, "check.mjs"))
		// This test binary is the toolout program (TestMain); the check's
		// temp folder and every store its programs make go under the spec's.
		// A race build sleeps 1 s at exit unless told not to (make test
		// does): about 35 of the check's programs exit, 40 s instead of 10.
		cmd.Env = append(os.Environ(), "TOOLOUT="+os.Args[0], "TOOLOUT_AS_MAIN=1", "TMPDIR="+GinkgoT().TempDir(),
			"GORACE=atexit_sleep_ms=0")
		// On the deadline the check gets SIGTERM, which stops everything it
		// started (SIGKILL would leave serve and the agents running).
		cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
		cmd.WaitDelay = 15 * time.Second
		out, err := cmd.CombinedOutput()
		GinkgoWriter.Write(out)
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(MatchRegexp(`(?m)^PASS \(\d+ ok, 0 failed[,)]`))
	})
})
