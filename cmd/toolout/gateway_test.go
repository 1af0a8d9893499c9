package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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
		func(args []string, want string) {
			code, _, stderr := invoke("x", append([]string{"gateway"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stderr).To(Equal(want))
		},
		Entry("no subcommand", []string{}, "toolout gateway: want a subcommand: serve, compress or shadow-id\n"),
		Entry("bad strategy", []string{"compress", "--strategy", "zip"}, "toolout gateway compress: --strategy \"zip\": want passthrough, simple, api or external_provider\n"),
		Entry("api without endpoint", []string{"compress", "--strategy", "api"}, "toolout gateway compress: --strategy api: api.endpoint is required (--endpoint URL)\n"),
		Entry("external provider", []string{"compress", "--strategy", "external_provider"}, "toolout gateway compress: --strategy external_provider runs from a serve config (a provider model); here: simple, passthrough or api\n"),
		Entry("bad bounds", []string{"compress", "--min-bytes", "10", "--max-bytes", "5"}, "toolout gateway compress: gateway: min_bytes 10 must be below max_bytes 5\n"),
		Entry("serve without upstream", []string{"serve", "--config", "x.yaml"}, "toolout gateway serve: --upstream and --config are required\n"),
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
		Expect(stderr).To(ContainSubstring(cfg + ":5:17: pipes.tool_output.rate_limit: .nan: want a finite number"))
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
		resp, err := http.Post(addr+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		Expect(string(out)).To(ContainSubstring(`"content":"true"`))
		cancel()
		rest, _ := io.ReadAll(lines)
		Expect(<-done).To(Equal(0))
		Expect(string(rest)).To(ContainSubstring("stopped; cache hits 0, misses 1, compressions ok 1"))
	})
})
