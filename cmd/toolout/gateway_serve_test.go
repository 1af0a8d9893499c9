package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// serveGateway runs `toolout gateway serve` with the YAML config text in
// front of upstream and returns its base URL; the server stops (and its
// exit code is checked) when the spec ends.
func serveGateway(config string, upstream string, extra ...string) string {
	cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
	Expect(os.WriteFile(cfg, []byte(config), 0o644)).To(Succeed())
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	args := append([]string{"gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", upstream, "--config", cfg}, extra...)
	go func() {
		done <- run(ctx, args, strings.NewReader(""), pw, &stderr)
		pw.Close()
	}()
	lines := bufio.NewReader(pr)
	first, err := lines.ReadString('\n')
	Expect(err).NotTo(HaveOccurred(), stderr.String())
	addr := regexp.MustCompile(`http://[0-9.:]+`).FindString(first)
	Expect(addr).NotTo(BeEmpty(), first)
	DeferCleanup(func() {
		cancel()
		_, _ = io.Copy(io.Discard, lines)
		Expect(<-done).To(Equal(0), stderr.String())
	})
	return addr
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
		resp, err := http.Post(addr+"/v1/chat/completions", "application/json", strings.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		resp, err = http.Get(addr + "/metrics")
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		text, _ := io.ReadAll(resp.Body)
		Expect(string(text)).To(ContainSubstring(`toolout_gateway_requests_total{outcome="ok",route="openai"} 1`))
		Expect(string(text)).To(ContainSubstring(`toolout_gateway_compressions_total{result="ok"} 1`))
		Expect(string(text)).To(ContainSubstring(`toolout_gateway_store_entries{kind="original"} 1`))
		Expect(string(text)).To(MatchRegexp(`toolout_gateway_upstream_duration_seconds_count\{route="openai"\} 1`))
	})

	It("refuses a 64 MiB body of tiny values with 413 without reading it all", func() {
		addr := serveGateway(simpleConfig, upstream)
		body := bytes.Repeat([]byte("0,"), 32<<20)
		copy(body, `{"messages":[`)
		resp, err := http.Post(addr+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		msg, _ := io.ReadAll(resp.Body)
		Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(string(msg)).To(ContainSubstring("request body larger than 16777216 bytes"))
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
		Expect(string(reply)).To(Or(BeEmpty(), ContainSubstring("400")))
	})
})
