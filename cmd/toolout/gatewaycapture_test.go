package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("the gateway config's capture", func() {
	load := func(text string) FileConfig {
		GinkgoHelper()
		file := filepath.Join(GinkgoT().TempDir(), "gw.yaml")
		Expect(os.WriteFile(file, []byte("pipes: {tool_output: {enabled: true}}\n"+text), 0o644)).To(Succeed())
		fc, err := loadGatewayConfig(file)
		Expect(err).NotTo(HaveOccurred())
		return fc
	}

	It("is off without one, and takes the defaults for what it leaves out", func() {
		_, on, err := load("").captureOptions()
		Expect(err).NotTo(HaveOccurred())
		Expect(on).To(BeFalse())
		o, on, err := load("capture: {dir: traces, redact: ['pw=\\S+']}\n").captureOptions()
		Expect(err).NotTo(HaveOccurred())
		Expect(on).To(BeTrue())
		Expect(o.Dir).To(Equal("traces"))
		Expect(o.Sample).To(Equal(1.0))
		Expect(o.MaxBytes).To(Equal(int64(DefaultCaptureBytes)))
		Expect(o.MaxFiles).To(Equal(DefaultCaptureFiles))
		Expect(o.Redact).To(Equal([]string{`pw=\S+`}))
	})

	DescribeTable("refuses what cannot be captured",
		func(text, want string) {
			_, _, err := load(text).captureOptions()
			Expect(err).To(MatchError(want))
		},
		Entry("no dir", "capture: {sample: 0.5}\n", "capture: dir: want the folder of the trace files"),
		Entry("a share over 1", "capture: {dir: x, sample: 1.5}\n", "capture.sample 1.5: want a share from 0 to 1"),
		Entry("a negative bound", "capture: {dir: x, max_files: -1}\n", "capture.max_bytes and capture.max_files: must not be negative"),
	)

	It("refuses an unknown key at its line:col", func() {
		file := filepath.Join(GinkgoT().TempDir(), "gw.yaml")
		Expect(os.WriteFile(file, []byte("pipes: {tool_output: {enabled: true}}\ncapture: {dir: x, max_file: 3}\n"), 0o644)).To(Succeed())
		_, err := loadGatewayConfig(file)
		Expect(err).To(MatchError(file + `:2:19: unknown field "max_file" in capture (did you mean "max_files"?)`))
	})
})

var _ = Describe("toolout gateway serve with a capture", func() {
	// secretLog is the log the agent sends: agentLog and a token.
	secretLog := agentLog() + "token sk-proj-abcdefghijklmnopqrstuv0123\n"
	// converseWith runs serve's conversation of scenario through a gateway
	// with capture dir, and returns the gateway's base URL (no /v1).
	converseWith := func(scenario, dir string, stream bool) string {
		p := startProgram("serve", "--exit-when-done", scenario)
		base := strings.TrimSuffix(p.baseURL(), "/v1")
		gw := serveGateway(simpleConfig+"capture: {dir: "+dir+"}\n", base)
		agent := &agentChat{url: gw + "/v1", msgs: []any{map[string]any{"role": "user", "content": "Count ERROR lines per host."}}, stream: stream}
		status, body := agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		agent.toolResult(secretLog)
		status, body = agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		Expect(p.exited()).To(Equal(0), p.stderr())
		return gw
	}
	// converse is converseWith of serve's over-cap-handle conversation.
	converse := func(dir string) string { return converseWith(serveScenario, dir, false) }
	captures := func(gw, outcome string) string {
		GinkgoHelper()
		_, metrics := httpspec.Get(gw + "/metrics")
		return regexp.MustCompile(`toolout_gateway_captures_total\{outcome="` + outcome + `"\} (\d+)`).FindStringSubmatch(metrics)[1]
	}
	// captured returns the one capture file of dir, once both turns are
	// written.
	captured := func(gw, dir string) string {
		GinkgoHelper()
		Eventually(func() string { return captures(gw, "written") }).Should(Equal("2"))
		files, err := filepath.Glob(filepath.Join(dir, "capture-openai-*.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(1))
		return files[0]
	}

	It("writes the conversation to one file, redacted, that import --final turns into a session and a gateway scenario that pass", func() {
		dir := GinkgoT().TempDir()
		file := captured(converse(dir), dir)
		data, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).NotTo(ContainSubstring("sk-proj-abcdefghijklmnop"))
		Expect(string(data)).To(ContainSubstring("<<<SHADOW:"), "the forward, compressed, is kept beside the request")
		Expect(string(data)).To(ContainSubstring(`"config":{"strategy":"simple","simple_words":12,`), "the settings the gateway ran with")
		out := filepath.Join(GinkgoT().TempDir(), "from-capture.yaml")
		code, stdout, stderr := invoke("", "import", file, "--final", "-o", out, "--update")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("ok   from-capture\n"))
		Expect(stdout).To(ContainSubstring("ok   from-capture-gateway\n"))
		Expect(stdout).To(ContainSubstring("2 passed, 0 failed"))
		gw, err := os.ReadFile(strings.TrimSuffix(out, ".yaml") + "-gateway.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(gw)).To(ContainSubstring("component: gateway"))
		Expect(gatewayExpect(gw)).To(Equal([]map[string]any{{"rounds": 1, "expansions": []any{}},
			{"actions": []any{"compressed"}, "rounds": 1, "expansions": []any{}}}))
	})

	DescribeTable("imports an expand_context round as the gateway scenario's model calling it, on the id of the redacted log", func(stream bool) {
		dir := GinkgoT().TempDir()
		file := captured(converseWith("testdata/serve-gateway/expand-secret.yaml", dir, stream), dir)
		data, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring(`"expansions":[{"round":1,"call_id":"x1","shadow_id":"` + gateway.ShadowID(secretLog) + `","answer":"original"}]`))
		out := filepath.Join(GinkgoT().TempDir(), "expanded.yaml")
		code, stdout, stderr := invoke("", "import", file, "--final", "-o", out, "--update")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("2 passed, 0 failed"))
		gw, err := os.ReadFile(strings.TrimSuffix(out, ".yaml") + "-gateway.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(gatewayExpect(gw)[1]).To(Equal(map[string]any{"actions": []any{"compressed"}, "rounds": 2,
			"expansions": []any{"original"}, "response_lacks": []any{"expand_context"}}))
		Expect(string(gw)).NotTo(ContainSubstring(gateway.ShadowID(secretLog)), "the log is redacted: its id is another")
		Expect(string(gw)).To(MatchRegexp(`name: expand_context\s+args:\s+shadow_id: shadow_[0-9a-f]{32}`))
	},
		Entry("answered whole", false),
		Entry("streamed", true))

	It("answers every request when it cannot write, and counts the failures", func() {
		blocked := filepath.Join(GinkgoT().TempDir(), "a-file")
		Expect(os.WriteFile(blocked, nil, 0o444)).To(Succeed())
		gw := converse(blocked) // both turns answered 200
		Eventually(func() string { return captures(gw, "failed") }).Should(Equal("2"))
		Expect(captures(gw, "written")).To(Equal("0"))
	})
})

// gatewayExpect is what a gateway scenario expects of each request.
func gatewayExpect(scenario []byte) []map[string]any {
	GinkgoHelper()
	var sc struct {
		Expect struct{ Requests []map[string]any }
	}
	Expect(yaml.Unmarshal(scenario, &sc)).To(Succeed())
	return sc.Expect.Requests
}
