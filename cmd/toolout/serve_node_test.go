package main

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// nodeExample is the Node example's folder; its node_modules (git-ignored)
// holds the official openai SDK once `npm ci --prefix docs/examples/serve-node`
// has run (.ci/run does it when node is present). OPENAI_SDK_DIR names
// another folder whose node_modules holds it.
const nodeExample = "../../docs/examples/serve-node"

// nodeSDK returns node's path and the folder whose node_modules holds the
// SDK, or skips the spec when either is missing, naming the install command.
func nodeSDK() (node, sdk string) {
	node, err := exec.LookPath("node")
	if err != nil {
		Skip("node is not on PATH: the Node example (docs/examples/serve-node) needs node 20 or later")
	}
	sdk = cmp.Or(os.Getenv("OPENAI_SDK_DIR"), nodeExample)
	if _, err := os.Stat(filepath.Join(sdk, "node_modules", "openai", "package.json")); err != nil {
		Skip("the openai SDK is not installed in " + filepath.Join(sdk, "node_modules") +
			": run `npm ci --prefix docs/examples/serve-node` (needs the network; .ci/run does it when node is present)")
	}
	return node, sdk
}

var _ = Describe("the Node example: the official OpenAI SDK against toolout serve", func() {
	var node, sdk string
	BeforeEach(func() { node, sdk = nodeSDK() })

	// run runs the example's agent to its end.
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(nodeExample, "agent.mjs")}, args...)...)
		cmd.Env = append(os.Environ(), "OPENAI_SDK_DIR="+sdk)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	DescribeTable("runs scenarios/session/over-cap-handle.yaml to its end, and serve exits 0", func(args ...string) {
		p := startProgram("serve", serveScenario)
		url := p.baseURL()
		out, err := run(append([]string{url}, args...)...)
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(Equal("model: logs__query {\"since\":\"1h\"}\ntool: logs__query returned 1679 bytes\nanswer: Stored; will extract next.\n"))
		Expect(p.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		Expect(p.exited()).To(Equal(0), p.stderr())
		Expect(p.stderr()).To(Equal("toolout serve: stopped after 2 request(s): every step answered as scripted\n"))
	},
		Entry("chat.completions.create"),
		Entry("chat.completions.stream(...).finalChatCompletion(), with include_usage", "--stream"),
	)

	It("stops early, and serve reports the step it left unused with exit 1", func() {
		p := startProgram("serve", serveScenario)
		url := p.baseURL()
		out, err := run(url, "--turns", "1")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(HaveSuffix("stopped after 1 turn(s)\n"))
		Expect(p.cmd.Process.Signal(syscall.SIGINT)).To(Succeed())
		Expect(p.exited()).To(Equal(1), p.stderr())
		Expect(p.stderr()).To(Equal(`scenarios/session/over-cap-handle.yaml:28:3: step "answer" was never used` + "\n" +
			"toolout serve: stopped after 1 request(s): 1 problem(s)\n"))
	})

	It("shows the SDK the server's diff when a request matches no step", func() {
		p := startProgram("serve", "--exit-when-done", serveScenario)
		url := p.baseURL()
		out, err := run(url, "--turns", "1")
		Expect(err).NotTo(HaveOccurred(), out)
		out, err = run(url, "--turns", "1")
		Expect(err).To(HaveOccurred())
		Expect(strings.TrimSpace(out)).To(Equal(`agent.mjs: 422 toolout serve: fakes: request session.turn turn=1: step "query" matches but is used up (1 of 1 times) (scenarios/session/over-cap-handle.yaml:19:3)`))
		Expect(p.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		Expect(p.exited()).To(Equal(1))
	})
})
