package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/httpspec"
	"github.com/toolout/toolout/internal/redistest"
)

var _ = Describe("toolout gateway", func() {
	It("prints the shadow id of stdin, stable across runs", func() {
		code, stdout, _ := invoke("hello", "gateway", "shadow-id")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"shadow_id":"shadow_2cf24dba5fb0a30e26e83b2ac5b9e29e"}` + "\n"))
	})

	It("compresses one output, or says why not", func() {
		big := strings.Repeat("alpha beta gamma ", 300)
		code, stdout, _ := invoke(big, "gateway", "compress", "--strategy", "simple", "--words", "3")
		Expect(code).To(Equal(0))
		var out struct {
			Action, Reason, Text string
			ShadowID             string `json:"shadow_id"`
		}
		Expect(json.Unmarshal([]byte(stdout), &out)).To(Succeed())
		Expect(out.Action).To(Equal("compressed"))
		Expect(out.Text).To(Equal("<<<SHADOW:" + out.ShadowID + ">>>\nalpha beta gamma [... 897 more words]"))
		_, stdout, _ = invoke("small", "gateway", "compress")
		Expect(stdout).To(ContainSubstring(`"action":"passthrough","reason":"5 bytes <= min_bytes 2048"`))
		_, stdout, _ = invoke(big, "gateway", "compress", "--tool", "Bash", "--provider", "anthropic", "--skip-tools", "bash,edit")
		Expect(stdout).To(ContainSubstring(`"action":"skipped","reason":"skip_tools: Bash"`))
	})

	DescribeTable("rejects bad input in one line",
		refused("x", "gateway"),
		Entry("no subcommand", []string{}, "toolout gateway: want a subcommand: serve, compress or shadow-id\n"),
		Entry("bad strategy", []string{"compress", "--strategy", "zip"}, "toolout gateway compress: --strategy \"zip\": want passthrough, simple, api or external_provider\n"),
		Entry("api without endpoint", []string{"compress", "--strategy", "api"}, "toolout gateway compress: --strategy api: api.endpoint is required (--endpoint URL)\n"),
		Entry("external provider", []string{"compress", "--strategy", "external_provider"}, "toolout gateway compress: --strategy external_provider runs from a serve config (a provider model); here: simple, passthrough or api\n"),
		Entry("bad bounds", []string{"compress", "--min-bytes", "10", "--max-bytes", "5"}, "toolout gateway compress: gateway: min_bytes 10 must be below max_bytes 5\n"),
		Entry("serve without upstream", []string{"serve", "--config", "x.yaml"}, "toolout gateway serve: --upstream and --config are required\n"),
		// --listen 0.0.0.0 once bound every interface with no
		// opt-in, where toolout serve asks for --allow-remote. Refused
		// before the config is read or a store opened.
		Entry("serve on every interface", []string{"serve", "--listen", "0.0.0.0:0", "--upstream", "http://127.0.0.1:1", "--config", "no/such.yaml"},
			`toolout gateway serve: --listen: address "0.0.0.0:0" is not loopback (127.0.0.1, ::1, localhost); `+
				"the gateway forwards anyone who reaches it to the upstream and expands its stored originals for them, so serving beyond this machine needs --allow-remote\n"),
		Entry("serve on an empty host", []string{"serve", "--listen", ":8787", "--upstream", "http://127.0.0.1:1", "--config", "no/such.yaml"},
			`toolout gateway serve: --listen: address ":8787" is not loopback (127.0.0.1, ::1, localhost); `+
				"the gateway forwards anyone who reaches it to the upstream and expands its stored originals for them, so serving beyond this machine needs --allow-remote\n"),
		Entry("serve on a host name", []string{"serve", "--listen", "example.com:80", "--upstream", "http://127.0.0.1:1", "--config", "no/such.yaml"},
			`toolout gateway serve: --listen: address "example.com:80" is not loopback (127.0.0.1, ::1, localhost); `+
				"the gateway forwards anyone who reaches it to the upstream and expands its stored originals for them, so serving beyond this machine needs --allow-remote\n"),
		Entry("serve remote with --allow-remote gets past the address", []string{"serve", "--allow-remote", "--listen", "0.0.0.0:0", "--upstream", "http://127.0.0.1:1", "--config", "no/such.yaml"},
			"toolout gateway serve: --config: open no/such.yaml: no such file or directory\n"),
		Entry("serve on loopback needs no opt-in", []string{"serve", "--listen", "[::1]:0", "--upstream", "http://127.0.0.1:1", "--config", "no/such.yaml"},
			"toolout gateway serve: --config: open no/such.yaml: no such file or directory\n"),
	)

	It("rejects an unknown config field with its line", func() {
		cfg := filepath.Join(GinkgoT().TempDir(), "gw.yaml")
		Expect(os.WriteFile(cfg, []byte("pipes:\n  tool_output:\n    enabled: true\n    strategy: simple\n    min_byte: 10\n"), 0o644)).To(Succeed())
		code, _, stderr := invoke("", "gateway", "serve", "--upstream", "http://127.0.0.1:1", "--config", cfg)
		Expect(code).To(Equal(2))
		Expect(stderr).To(ContainSubstring(cfg + `:5:5: unknown field "min_byte" in pipes.tool_output (did you mean "min_bytes"?)`))
	})

	It("rejects a rate limit that is not a finite number at its line", func() {
		cfg := filepath.Join(GinkgoT().TempDir(), "gw.yaml")
		Expect(os.WriteFile(cfg, []byte("pipes:\n  tool_output:\n    enabled: true\n    strategy: simple\n    rate_limit: .nan\n"), 0o644)).To(Succeed())
		code, _, stderr := invoke("", "gateway", "serve", "--upstream", "http://127.0.0.1:1", "--config", cfg)
		Expect(code).To(Equal(2))
		Expect(stderr).To(ContainSubstring(cfg + `:5:17: pipes.tool_output.rate_limit: want a finite number, got ".nan"`))
	})

	It("serves the proxy on loopback and shuts down gracefully", func() {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			// Echo whether the upstream saw a compressed result.
			fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`,
				fmt.Sprint(bytes.Contains(body, []byte("<<<SHADOW:"))))
		}))
		DeferCleanup(up.Close)
		cfg := "testdata/gateway.yaml" // the example the README points to
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		var stderr bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", up.URL, "--config", cfg}, strings.NewReader(""), pw, &stderr)
			pw.Close()
		}()
		lines := bufio.NewReader(pr)
		first, err := lines.ReadString('\n')
		Expect(err).NotTo(HaveOccurred())
		addr := regexp.MustCompile(`http://[0-9.:]+`).FindString(first)
		Expect(addr).NotTo(BeEmpty(), first)
		body, _ := json.Marshal(map[string]any{"messages": []any{
			map[string]any{"role": "user", "content": "q"},
			map[string]any{"role": "tool", "tool_call_id": "c", "content": strings.Repeat("data ", 1000)}}})
		_, out := httpspec.Post(addr+"/v1/chat/completions", body)
		Expect(out).To(ContainSubstring(`"content":"true"`))
		cancel()
		rest, _ := io.ReadAll(lines)
		Expect(<-done).To(Equal(0))
		Expect(string(rest)).To(ContainSubstring("stopped; cache hits 0, misses 1, compressions ok 1"))
	})
})

var _ = Describe("toolout gateway serve on the Responses API", func() {
	It("serves POST /v1/responses on the OpenAI upstream, compressing a function_call_output", func() {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			// Echo the path and whether the upstream saw a compressed output.
			fmt.Fprintf(w, `{"id":"resp_1","object":"response","status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"%s %v"}]}]}`,
				r.URL.Path, bytes.Contains(body, []byte(`"output":"<<<SHADOW:`)))
		}))
		DeferCleanup(up.Close)
		addr, first, _ := startGateway(simpleConfig, up.URL+"/v1")
		Expect(first).To(ContainSubstring("forwarding /v1/chat/completions and /v1/responses to " + up.URL + " and /v1/messages to"))
		body, _ := json.Marshal(map[string]any{"model": "m", "input": []any{
			map[string]any{"role": "user", "content": "q"},
			map[string]any{"type": "function_call", "call_id": "c", "name": "exec_command", "arguments": "{}"},
			map[string]any{"type": "function_call_output", "call_id": "c", "output": strings.Repeat("data ", 1000)}}})
		_, out := httpspec.Post(addr+"/v1/responses", body)
		Expect(out).To(ContainSubstring(`"text":"/v1/responses true"`))
		_, out = httpspec.Post(addr+"/v1/responses/compact", body)
		Expect(out).To(ContainSubstring(`"text":"/v1/responses/compact false"`))
	})
})

// serveGateway runs `toolout gateway serve` with the YAML config text in
// front of upstream and returns its base URL; the server stops (and its
// exit code is checked) when the spec ends.
func serveGateway(config string, upstream string, extra ...string) string {
	addr, _, _ := startGateway(config, upstream, extra...)
	return addr
}

// lockedBuffer is a bytes.Buffer a server writes while a spec reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startGateway is serveGateway that also returns the first line of stdout
// (the "listening" line) and the server's stderr so far.
func startGateway(config string, upstream string, extra ...string) (addr, first string, stderr *lockedBuffer) {
	cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
	Expect(os.WriteFile(cfg, []byte(config), 0o644)).To(Succeed())
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr = &lockedBuffer{}
	done := make(chan int, 1)
	args := append([]string{"gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", upstream, "--config", cfg}, extra...)
	go func() {
		done <- run(ctx, args, strings.NewReader(""), pw, stderr)
		pw.Close()
	}()
	lines := bufio.NewReader(pr)
	first, err := lines.ReadString('\n')
	Expect(err).NotTo(HaveOccurred(), stderr.String())
	addr = regexp.MustCompile(`http://[0-9.:]+`).FindString(first)
	Expect(addr).NotTo(BeEmpty(), first)
	DeferCleanup(func() {
		cancel()
		_, _ = io.Copy(io.Discard, lines)
		Expect(<-done).To(Equal(0), stderr.String())
	})
	return addr, first, stderr
}

const simpleConfig = "pipes:\n  tool_output: {enabled: true, strategy: simple, simple_words: 12, enable_expand_context: true}\n"

var _ = Describe("toolout gateway serve, operations", func() {
	var upstream string
	BeforeEach(func() {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
		}))
		DeferCleanup(up.Close)
		upstream = up.URL
	})

	It("shows the counters on GET /metrics", func() {
		addr := serveGateway(simpleConfig, upstream)
		body := `{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c","content":"` + strings.Repeat("data ", 1000) + `"}]}`
		resp, _ := httpspec.Post(addr+"/v1/chat/completions", body)
		Expect(resp.Header.Get(proxy.OverheadHeader)).To(MatchRegexp(`^\d+\.\d{3}$`))
		_, text := httpspec.Get(addr + "/metrics")
		Expect(text).To(ContainSubstring(`toolout_gateway_requests_total{outcome="ok",route="openai"} 1`))
		Expect(text).To(ContainSubstring(`toolout_gateway_compressions_total{result="ok"} 1`))
		Expect(text).To(ContainSubstring(`toolout_gateway_store_entries{kind="original"} 1`))
		Expect(text).To(MatchRegexp(`toolout_gateway_upstream_duration_seconds_count\{route="openai"\} 1`))
		Expect(text).To(MatchRegexp(`toolout_gateway_overhead_seconds_count\{route="openai"\} 1`))
	})

	It("refuses a 64 MiB body of tiny values with 413 without reading it all", func() {
		addr := serveGateway(simpleConfig, upstream)
		body := bytes.Repeat([]byte("0,"), 32<<20)
		copy(body, `{"messages":[`)
		resp, msg := httpspec.Post(addr+"/v1/chat/completions", body)
		Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(msg).To(ContainSubstring("request body larger than 16777216 bytes"))
	})

	It("disconnects a client that does not finish its headers within read_header_timeout", func() {
		addr := serveGateway(simpleConfig+"server: {read_header_timeout: 200ms}\n", upstream)
		conn, err := net.Dial("tcp", strings.TrimPrefix(addr, "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		_, err = io.WriteString(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n") // and nothing more
		Expect(err).NotTo(HaveOccurred())
		Expect(conn.SetReadDeadline(time.Now().Add(30 * time.Second))).To(Succeed()) // a failsafe, far past the timeout
		_, err = io.ReadAll(conn)
		Expect(err).NotTo(HaveOccurred(), "the server closed the connection (EOF), the failsafe deadline did not fire")
	})

	It("disconnects a client that sends its body too slowly, within read_timeout", func() {
		addr := serveGateway(simpleConfig+"server: {read_timeout: 300ms}\n", upstream)
		conn, err := net.Dial("tcp", strings.TrimPrefix(addr, "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		_, err = io.WriteString(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"messages\":")
		Expect(err).NotTo(HaveOccurred())
		Expect(conn.SetReadDeadline(time.Now().Add(30 * time.Second))).To(Succeed())
		reply, err := io.ReadAll(conn)
		Expect(err).NotTo(HaveOccurred(), "the server closed the connection")
		Expect(string(reply)).To(Or(BeEmpty(), HavePrefix("HTTP/1.1 408 Request Timeout\r\n"))) // in the API's error shape
	})
})

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

		original := failedLog()
		shadow := gateway.ShadowID(original)
		// The model asks to expand when the client says so, and says
		// whether it saw the original.
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			answerSawOriginal(w, r, body, shadow)
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
			_, text := httpspec.Get(base + "/metrics")
			return strings.Contains(text, line)
		}

		Expect(send(first, false)).To(ContainSubstring("saw original: false"), "the first replica compressed the log")
		Expect(metric(first, `toolout_gateway_compressions_total{result="ok"} 1`)).To(BeTrue())
		Expect(send(second, true)).To(ContainSubstring("saw original: true"), "the second replica expanded it from Redis")
		Expect(metric(second, `toolout_gateway_cache_total{result="hit"} 1`)).To(BeTrue(), "it reused the first one's compression")
		Expect(metric(second, `toolout_gateway_compressions_total{result="ok"} 0`)).To(BeTrue())
		Expect(metric(second, `toolout_gateway_expansions_total{answer="original"} 1`)).To(BeTrue())
	})
})
