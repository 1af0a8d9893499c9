package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/httpspec"
)

const serveScenario = "../../scenarios/session/over-cap-handle.yaml"

// The over-cap-handle conversation as an OpenAI client sends it.
const (
	serveTurn1 = `{"model":"m","messages":[{"role":"user","content":"Count ERROR lines per host."}]}`
	serveTurn2 = `{"model":"m","messages":[{"role":"user","content":"Count ERROR lines per host."},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call-1","type":"function","function":{"name":"logs__query","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"call-1","content":"Tool output is too large"}]}`
)

// baseURL waits for the first line of a serve process's stdout: its URL.
// A process that exits before printing it fails the spec at once, with its
// stderr, rather than after the wait.
func (p *program) baseURL() string {
	var first string
	Eventually(func() bool {
		var exited bool
		select {
		case <-p.done: // read before stdout: all it printed is in the file
			exited = true
		default:
		}
		out := p.stdout() // one read: a second could see the line the first did not
		first, _, _ = strings.Cut(out, "\n")
		if !strings.HasSuffix(out, "\n") && exited {
			StopTrying("the program exited before printing its URL: " + p.stderr()).Now()
		}
		return strings.HasSuffix(out, "\n")
	}).WithTimeout(time.Minute).WithPolling(5*time.Millisecond).Should(BeTrue(), func() string { return p.stderr() })
	return first
}

// exited waits for the process to end and returns its status.
func (p *program) exited() int {
	Eventually(p.done).WithTimeout(30*time.Second).Should(BeClosed(), func() string { return p.stderr() })
	return p.cmd.ProcessState.ExitCode()
}

var _ = Describe("toolout serve", func() {
	It("fails a spec waiting for its URL as soon as serve exits without one, with serve's error", func() {
		p := startProgram("serve", "no-such-scenario.yaml")
		failures := InterceptGomegaFailures(func() { p.baseURL() })
		Expect(failures).To(HaveLen(1))
		Expect(failures[0]).To(ContainSubstring("the program exited before printing its URL: toolout serve: no-such-scenario.yaml: "))
		Expect(p.exited()).To(Equal(2))
	})

	It("prints its base URL first, and reports the steps a client left unused at SIGINT with exit 1", func() {
		p := startProgram("serve", serveScenario)
		url := p.baseURL()
		Expect(url).To(MatchRegexp(`^http://127\.0\.0\.1:[0-9]+/v1$`))
		resp, body := httpspec.Post(url+"/chat/completions", serveTurn1)
		Expect(resp.StatusCode).To(Equal(http.StatusOK), body)
		Expect(p.cmd.Process.Signal(syscall.SIGINT)).To(Succeed())
		Expect(p.exited()).To(Equal(1), p.stderr())
		Expect(p.stderr()).To(Equal(`scenarios/session/over-cap-handle.yaml:28:3: step "answer" was never used` + "\n" +
			"toolout serve: stopped after 1 request(s): 1 problem(s)\n"))
		Expect(p.stdout()).To(Equal(url + "\n"))
	})

	It("reports an unmatched request with its diff, on one line", func() {
		p := startProgram("serve", serveScenario)
		url := p.baseURL()
		third := strings.Replace(serveTurn2, `{"role":"tool"`, `{"role":"assistant","content":"again"},{"role":"tool"`, 1)
		resp, body := httpspec.Post(url+"/chat/completions", third)
		Expect(resp.StatusCode).To(Equal(http.StatusUnprocessableEntity), body)
		Expect(body).To(ContainSubstring(`nearest step \"query\"`))
		Expect(p.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		Expect(p.exited()).To(Equal(1))
		Expect(p.stderr()).To(Equal(`scenarios/session/over-cap-handle.yaml: request session.turn turn=3: no step matches; ` +
			`nearest step "query" (scenarios/session/over-cap-handle.yaml:19:3) (-step +request): - turn: 1; + turn: 3` + "\n" +
			`scenarios/session/over-cap-handle.yaml:19:3: step "query" was never used` + "\n" +
			`scenarios/session/over-cap-handle.yaml:28:3: step "answer" was never used` + "\n" +
			"toolout serve: stopped after 1 request(s): 3 problem(s)\n"))
	})

	It("exits 0 by itself with --exit-when-done once every step has answered", func() {
		p := startProgram("serve", "--exit-when-done", serveScenario)
		url := p.baseURL()
		for _, body := range []string{serveTurn1, serveTurn2} {
			resp, answer := httpspec.Post(url+"/chat/completions", body)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), answer)
		}
		Expect(p.exited()).To(Equal(0), p.stderr())
		Expect(p.stderr()).To(Equal("toolout serve: stopped after 2 request(s): every step answered as scripted\n"))
	})

	It("exits 1 at --deadline with the steps still unused, each at its file:line:col", func() {
		p := startProgram("serve", "--exit-when-done", "--deadline", "500ms", serveScenario)
		url := p.baseURL()
		resp, body := httpspec.Post(url+"/chat/completions", serveTurn1)
		Expect(resp.StatusCode).To(Equal(http.StatusOK), body)
		Expect(p.exited()).To(Equal(1), p.stderr())
		Expect(p.stderr()).To(Equal("toolout serve: --deadline 500ms passed with 1 step(s) unused\n" +
			`scenarios/session/over-cap-handle.yaml:28:3: step "answer" was never used` + "\n" +
			"toolout serve: stopped after 1 request(s): 1 problem(s)\n"))
	})

	It("exits 0 before --deadline once every step has answered", func() {
		p := startProgram("serve", "--exit-when-done", "--deadline", "10m", serveScenario)
		url := p.baseURL()
		for _, body := range []string{serveTurn1, serveTurn2} {
			resp, answer := httpspec.Post(url+"/chat/completions", body)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), answer)
		}
		Expect(p.exited()).To(Equal(0), p.stderr())
	})

	It("reports every request it rejected and exits 1, though every step answered", func() {
		p := startProgram("serve", "--exit-when-done", serveScenario)
		url := p.baseURL()
		for range 2 {
			resp, body := httpspec.Post(url+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":{}}`)
			Expect(resp.StatusCode).To(Equal(http.StatusBadRequest), body)
		}
		resp, body := httpspec.Get(url + "/chat/completions")
		Expect(resp.StatusCode).To(Equal(http.StatusMethodNotAllowed), body)
		for _, body := range []string{serveTurn1, serveTurn2} {
			resp, answer := httpspec.Post(url+"/chat/completions", body)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), answer)
		}
		Expect(p.exited()).To(Equal(1), p.stderr())
		bad := "scenarios/session/over-cap-handle.yaml: rejected POST /v1/chat/completions: 400 openai: chat request: 1:66 (byte 65): tools: want an array, got an object"
		lines := strings.Split(strings.TrimSuffix(p.stderr(), "\n"), "\n")
		Expect(lines).To(HaveLen(4), p.stderr())
		Expect(lines[0]).To(Equal(bad))
		Expect(lines[1]).To(Equal(lines[0]))
		Expect(lines[2]).To(Equal(`scenarios/session/over-cap-handle.yaml: rejected GET /v1/chat/completions: 405 GET "/v1/chat/completions": want POST`))
		Expect(lines[3]).To(Equal("toolout serve: stopped after 5 request(s), 3 rejected: 3 problem(s)"))
	})

	It("exits 0 at SIGTERM when every step has answered", func() {
		p := startProgram("serve", serveScenario)
		url := p.baseURL()
		for _, body := range []string{serveTurn1, serveTurn2} {
			resp, answer := httpspec.Post(url+"/chat/completions", body)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), answer)
		}
		Expect(p.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		Expect(p.exited()).To(Equal(0), p.stderr())
	})

	It("prints one base URL per scenario, in order", func() {
		dir := GinkgoT().TempDir()
		other := filepath.Join(dir, "other.yaml")
		b, err := os.ReadFile(serveScenario)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(other, b, 0o644)).To(Succeed())
		p := startProgram("serve", serveScenario, other)
		Eventually(func() []string { return strings.Split(p.stdout(), "\n") }).WithTimeout(time.Minute).Should(HaveLen(3))
		lines := strings.Split(p.stdout(), "\n")
		Expect(lines[0]).To(MatchRegexp(`^http://127\.0\.0\.1:[0-9]+/session/over-cap-handle/v1$`))
		Expect(lines[1]).To(MatchRegexp(`^http://127\.0\.0\.1:[0-9]+/other/v1$`))
		Expect(p.cmd.Process.Signal(syscall.SIGINT)).To(Succeed())
		Expect(p.exited()).To(Equal(1))
	})

	DescribeTable("refuses bad usage and bad scenarios with exit 2 and one line each",
		refused("", "serve"),
		Entry("no scenario", []string{}, "toolout serve: want at least one scenario file\n"),
		Entry("missing file", []string{"no/such.yaml"}, "toolout serve: no/such.yaml: no such file or directory\n"),
		Entry("not loopback", []string{"--addr", "0.0.0.0:0", serveScenario},
			`toolout serve: --addr: address "0.0.0.0:0" is not loopback (127.0.0.1, ::1, localhost); the scripted model answers anyone who reaches it, so serving beyond this machine needs --allow-remote`+"\n"),
		Entry("bad limit", []string{"--max-body", "0", serveScenario}, "toolout serve: --max-body and --max-concurrent: want positive numbers\n"),
		Entry("bad timeout", []string{"--timeout", "-1s", serveScenario}, "toolout serve: --timeout -1s: want a positive duration\n"),
		Entry("bad deadline", []string{"--exit-when-done", "--deadline", "0s", serveScenario}, "toolout serve: --deadline 0s: want a positive duration\n"),
		Entry("nothing to serve", []string{"../../scenarios/schema/" + firstScenario("../../scenarios/schema")},
			"toolout serve: scenarios/schema/"+firstScenario("../../scenarios/schema")+": no llm steps: nothing to serve\n"),
		Entry("a recording flag without --record", []string{"--record-only", serveScenario}, "toolout serve: --record-only: goes with --record\n"),
		Entry("a redaction without --record", []string{"--redact", "x", serveScenario}, "toolout serve: --redact: goes with --record\n"),
		Entry("--record without a URL", []string{"--record", "", serveScenario}, "toolout serve: --record: want the upstream's URL\n"),
		Entry("--record of no URL", []string{"--record", "api.openai.com", serveScenario}, "toolout serve: --record: upstream \"api.openai.com\": want an http:// or https:// URL\n"),
		Entry("a bad redaction", []string{"--record", "http://127.0.0.1:1", "--redact", "(", serveScenario}, "toolout serve: --record: --redact \"(\": error parsing regexp: missing closing ): `(`\n"),
		Entry("--record into a folder that does not exist", []string{"--record", "http://127.0.0.1:1", "no/such/x.yaml"}, "toolout serve: no/such/x.yaml: its folder: stat no/such: no such file or directory\n"),
		Entry("a bad replay speed", []string{"--replay-speed", "-1", serveScenario}, "toolout serve: --replay-speed -1: want a number from 0 to 100\n"),
		Entry("a replay speed that is not a number", []string{"--replay-speed", "NaN", serveScenario}, "toolout serve: --replay-speed NaN: want a number from 0 to 100\n"),
	)

	It("names every problem of a malformed scenario at its file:line:col", func() {
		bad := filepath.Join(GinkgoT().TempDir(), "bad.yaml")
		Expect(os.WriteFile(bad, []byte("component: session\nllm:\n- id: a\n  respond: {txt: hi}\n"), 0o644)).To(Succeed())
		code, _, stderr := invoke("", "serve", bad)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal(bad + ":4:12: llm[0].respond: want one of text, final, tool_calls, error, oracle\n" +
			bad + ":4:13: llm[0].respond: unknown field \"txt\" (did you mean \"text\"?)\n"))
	})
})

func firstScenario(dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(m) == 0 {
		return "none.yaml"
	}
	return filepath.Base(m[0])
}
