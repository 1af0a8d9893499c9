package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/internal/redistest"
)

// replica starts `toolout gateway serve` as a process of its own (this
// test binary, see TestMain) and returns its base URL; SIGTERM stops it
// when the spec ends, and it must exit 0.
func replica(config, upstream string) string {
	cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
	Expect(os.WriteFile(cfg, []byte(config), 0o644)).To(Succeed())
	cmd := exec.Command(os.Args[0], "gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", upstream, "--config", cfg)
	cmd.Env = append(os.Environ(), "TOOLOUT_AS_MAIN=1")
	errPath := filepath.Join(GinkgoT().TempDir(), "stderr")
	errFile, err := os.Create(errPath)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(errFile.Close)
	cmd.Stderr = errFile // a file, not a buffer: the process writes it while the spec may read it
	stderr := func() string { b, _ := os.ReadFile(errPath); return string(b) }
	out, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(cmd.Start()).To(Succeed())
	lines := bufio.NewReader(out)
	first, err := lines.ReadString('\n')
	Expect(err).NotTo(HaveOccurred(), stderr)
	addr := regexp.MustCompile(`http://[0-9.:]+`).FindString(first)
	Expect(addr).NotTo(BeEmpty(), first)
	DeferCleanup(func() {
		Expect(cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		_, _ = io.Copy(io.Discard, lines)
		Expect(cmd.Wait()).To(Succeed(), stderr)
	})
	return addr
}

var _ = Describe("two gateway replicas sharing one Redis", func() {
	It("expand, through the second, a result the first compressed", func() {
		srv, err := redistest.Start(GinkgoT().TempDir())
		if err == redistest.ErrMissing {
			Skip(redistest.Missing)
		}
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)

		var log strings.Builder
		for i := range 400 {
			status := "ok"
			if i == 333 {
				status = "FAILED"
			}
			fmt.Fprintf(&log, "line %d host=db-%d status=%s\n", i, i%5, status)
		}
		original := log.String()
		shadow := gateway.ShadowID(original)
		// The model asks to expand when the client says so, and says
		// whether it saw the original.
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			msg := map[string]any{"role": "assistant", "content": fmt.Sprint("saw original: ", bytes.Contains(body, []byte("status=FAILED")))}
			finish := "stop"
			if r.Header.Get("X-Test-Expand") == "yes" && r.Header.Get(gateway.RoundHeader) == "1" {
				msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "x1", "type": "function",
					"function": map[string]any{"name": "expand_context", "arguments": `{"shadow_id":"` + shadow + `"}`}}}}
				finish = "tool_calls"
			}
			out, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}})
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(out)
		}))
		DeferCleanup(up.Close)

		config := simpleConfig + "store: {backend: redis, url: \"" + srv.URL + "\", prefix: \"replicas-spec:\"}\n"
		first, second := replica(config, up.URL), replica(config, up.URL)
		request, _ := json.Marshal(map[string]any{"messages": []any{
			map[string]any{"role": "user", "content": "which line failed?"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
				"function": map[string]any{"name": "logs", "arguments": "{}"}}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": original}}})
		send := func(base string, expand bool) string {
			req, _ := http.NewRequest(http.MethodPost, base+"/v1/chat/completions", bytes.NewReader(request))
			if expand {
				req.Header.Set("X-Test-Expand", "yes")
			}
			resp, err := http.DefaultClient.Do(req)
			Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			out, _ := io.ReadAll(resp.Body)
			Expect(resp.StatusCode).To(Equal(200), string(out))
			return string(out)
		}
		metric := func(base, line string) bool {
			resp, err := http.Get(base + "/metrics")
			Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			text, _ := io.ReadAll(resp.Body)
			return strings.Contains(string(text), line)
		}

		Expect(send(first, false)).To(ContainSubstring("saw original: false"), "the first replica compressed the log")
		Expect(metric(first, `toolout_gateway_compressions_total{result="ok"} 1`)).To(BeTrue())
		Expect(send(second, true)).To(ContainSubstring("saw original: true"), "the second replica expanded it from Redis")
		Expect(metric(second, `toolout_gateway_cache_total{result="hit"} 1`)).To(BeTrue(), "it reused the first one's compression")
		Expect(metric(second, `toolout_gateway_compressions_total{result="ok"} 0`)).To(BeTrue())
		Expect(metric(second, `toolout_gateway_expansions_total{answer="original"} 1`)).To(BeTrue())
	})
})
