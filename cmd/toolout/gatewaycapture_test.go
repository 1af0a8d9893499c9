package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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
	// converse runs serve's over-cap-handle conversation through a gateway
	// with capture dir, and returns the gateway's base URL (no /v1).
	converse := func(dir string) string {
		p := startProgram("serve", "--exit-when-done", serveScenario)
		base := strings.TrimSuffix(p.baseURL(), "/v1")
		gw := serveGateway(simpleConfig+"capture: {dir: "+dir+"}\n", base)
		agent := &agentChat{url: gw + "/v1", msgs: []any{map[string]any{"role": "user", "content": "Count ERROR lines per host."}}}
		status, body := agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		agent.toolResult(agentLog() + "token sk-proj-abcdefghijklmnopqrstuv0123\n")
		status, body = agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		Expect(p.exited()).To(Equal(0), p.stderr())
		return gw
	}
	captures := func(gw, outcome string) string {
		GinkgoHelper()
		_, metrics := httpspec.Get(gw + "/metrics")
		return regexp.MustCompile(`toolout_gateway_captures_total\{outcome="` + outcome + `"\} (\d+)`).FindStringSubmatch(metrics)[1]
	}

	It("writes the conversation to one file, redacted, that import --final turns into a scenario that passes", func() {
		dir := GinkgoT().TempDir()
		gw := converse(dir)
		Eventually(func() string { return captures(gw, "written") }).Should(Equal("2"))
		files, err := filepath.Glob(filepath.Join(dir, "capture-openai-*.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(1))
		data, err := os.ReadFile(files[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).NotTo(ContainSubstring("sk-proj-abcdefghijklmnop"))
		Expect(string(data)).To(ContainSubstring("<<<SHADOW:"), "the forward, compressed, is kept beside the request")
		out := filepath.Join(GinkgoT().TempDir(), "from-capture.yaml")
		code, stdout, stderr := invoke("", "import", files[0], "--final", "-o", out, "--update")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("1 passed, 0 failed"))
	})

	It("answers every request when it cannot write, and counts the failures", func() {
		blocked := filepath.Join(GinkgoT().TempDir(), "a-file")
		Expect(os.WriteFile(blocked, nil, 0o444)).To(Succeed())
		gw := converse(blocked) // both turns answered 200
		Eventually(func() string { return captures(gw, "failed") }).Should(Equal("2"))
		Expect(captures(gw, "written")).To(Equal("0"))
	})
})
