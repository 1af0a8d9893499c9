package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("toolout gateway serve, the upstream URL", func() {
	chat := `{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c","content":"small"}]}`
	messages := `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"q"}]}`
	var mu sync.Mutex
	var paths []string
	var upstream string
	BeforeEach(func() {
		mu.Lock()
		paths = nil
		mu.Unlock()
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			paths = append(paths, r.Method+" "+r.URL.Path)
			mu.Unlock()
			if r.URL.Path == "/v1/missing" || strings.Contains(string(body), "no-such-model") {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
		}))
		DeferCleanup(up.Close)
		upstream = up.URL
	})

	DescribeTable("forwards to the same paths whether --upstream is the root or the SDKs' base URL, and says when it changed it",
		func(suffix, anthropicSuffix string) {
			var extra []string
			if anthropicSuffix != "" {
				extra = []string{"--anthropic-upstream", upstream + anthropicSuffix}
			}
			addr, first, stderr := startGateway(simpleConfig, upstream+suffix, extra...)
			Expect(first).To(ContainSubstring("forwarding /v1/chat/completions and /v1/responses to " + upstream + " and /v1/messages to " + upstream + " (strategy simple"))
			for _, r := range [][3]string{{"POST", "/v1/chat/completions", chat}, {"POST", "/v1/messages", messages},
				{"GET", "/v1/models", ""}, {"POST", "/v1/messages/count_tokens", messages}} {
				resp, out := httpspec.Send(r[0], addr+r[1], "application/json", r[2])
				Expect(resp.StatusCode).To(Equal(http.StatusOK), r[1]+": "+out)
			}
			mu.Lock()
			Expect(paths).To(Equal([]string{"POST /v1/chat/completions", "POST /v1/messages", "GET /v1/models", "POST /v1/messages/count_tokens"}))
			mu.Unlock()
			said := func(flag, suffix, path string) string {
				return "toolout gateway serve: " + flag + " " + upstream + suffix + " normalized to " + upstream + ": POST " + path + " goes to " + upstream + path + "\n"
			}
			if suffix == "" {
				Expect(stderr.String()).NotTo(ContainSubstring("normalized"))
			} else {
				Expect(stderr.String()).To(ContainSubstring(said("--upstream", suffix, "/v1/chat/completions")))
			}
			if anthropicSuffix != "" {
				Expect(stderr.String()).To(ContainSubstring(said("--anthropic-upstream", anthropicSuffix, "/v1/messages")))
			}
		},
		Entry("the server's root", "", ""),
		Entry("the root with a slash", "/", ""),
		Entry("the SDKs' base URL", "/v1", ""),
		Entry("the base URL with a slash, and an Anthropic base URL", "/v1/", "/v1"),
	)

	It("logs an upstream 404 with the path, routed or passed through", func() {
		addr, _, stderr := startGateway(simpleConfig, upstream+"/v1")
		resp, _ := httpspec.Get(addr + "/v1/missing")
		Expect(resp.StatusCode).To(Equal(http.StatusNotFound))
		resp, _ = httpspec.Post(addr+"/v1/chat/completions", `{"model":"no-such-model","messages":[{"role":"user","content":"q"}]}`)
		Expect(resp.StatusCode).To(Equal(http.StatusNotFound))
		Expect(stderr.String()).To(ContainSubstring("gateway: /v1/missing: upstream " + upstream + "/v1/missing answered 404: 404 page not found\n"))
		Expect(stderr.String()).To(ContainSubstring("gateway: /v1/chat/completions: upstream " + upstream +
			"/v1/chat/completions answered 404: 404 page not found\n"))
	})

	It("logs and counts a tool result over max_bytes", func() {
		addr, _, stderr := startGateway(simpleConfig, upstream)
		body := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function",` +
			`"function":{"name":"logs","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"` + strings.Repeat("x", 200<<10) + `"}]}`
		resp, _ := httpspec.Post(addr+"/v1/chat/completions", body)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(stderr.String()).To(ContainSubstring("gateway: output 0 (logs): passthrough: 204800 bytes > max_bytes 65536\n"))
		_, metrics := httpspec.Get(addr + "/metrics")
		Expect(metrics).To(ContainSubstring(`toolout_gateway_limited_total{limit="max_bytes"} 1` + "\n"))
	})
})

var _ = Describe("toolout gateway serve, a compression service that redirects", func() {
	// The api strategy posts the client's tool output and question to the
	// configured service: a redirect from it must not carry them to another
	// host. The call fails instead, and the fallback passes the output
	// through.
	It("is not followed: the output passes through, and the other host gets nothing", func() {
		var mu sync.Mutex
		var stolen []string
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			stolen = append(stolen, r.Method+" "+string(body))
			mu.Unlock()
			_, _ = io.WriteString(w, `{"compressed":"stolen"}`)
		}))
		DeferCleanup(other.Close)
		service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			http.Redirect(w, r, other.URL+"/compress", http.StatusTemporaryRedirect)
		}))
		DeferCleanup(service.Close)
		model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"`+
				map[bool]string{true: "compressed", false: "whole"}[strings.Contains(string(body), "<<<SHADOW:")]+`"},"finish_reason":"stop"}]}`)
		}))
		DeferCleanup(model.Close)
		addr := serveGateway("pipes:\n  tool_output: {enabled: true, strategy: api, api: {endpoint: "+service.URL+"/compress, timeout: 10s}}\n", model.URL)
		body := `{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c","content":"` + strings.Repeat("secret ", 1000) + `"}]}`
		resp, out := httpspec.Post(addr+"/v1/chat/completions", body)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(out).To(ContainSubstring(`"content":"whole"`))
		mu.Lock()
		defer mu.Unlock()
		Expect(stolen).To(BeEmpty())
	})
})
