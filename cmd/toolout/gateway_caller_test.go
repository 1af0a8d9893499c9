package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gomodule/redigo/redis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/redistest"
)

// callerUpstream is a model that, on the first round of a request whose
// client sends X-Test-Expand, calls expand_context on shadow, and otherwise
// says whether it saw the original; it keeps the last tool result it got.
type callerUpstream struct {
	mu     sync.Mutex
	marked string
}

func (c *callerUpstream) serve(shadow string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		for _, m := range req.Messages {
			if gateway.Marked(m.Content) {
				c.mu.Lock()
				c.marked = m.Content
				c.mu.Unlock()
			}
		}
		answerSawOriginal(w, r, body, shadow)
	}))
}

// failedLog is the specs' tool result: 400 log lines, line 333 with
// status=FAILED, the one the model can see only in the original.
func failedLog() string {
	var log strings.Builder
	for i := range 400 {
		status := "ok"
		if i == 333 {
			status = "FAILED"
		}
		fmt.Fprintf(&log, "line %d host=db-%d status=%s\n", i, i%5, status)
	}
	return log.String()
}

// answerSawOriginal answers a Chat Completions request as the specs' model
// does: on the first round of a request whose client sends X-Test-Expand,
// a call of expand_context on shadow; otherwise whether body holds the
// original (its line with status=FAILED).
func answerSawOriginal(w http.ResponseWriter, r *http.Request, body []byte, shadow string) {
	msg := map[string]any{"role": "assistant", "content": fmt.Sprint("saw original: ", bytes.Contains(body, []byte("status=FAILED")))}
	finish := "stop"
	if r.Header.Get("X-Test-Expand") == "yes" && r.Header.Get(proxy.RoundHeader) == "1" {
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "x1", "type": "function",
			"function": map[string]any{"name": "expand_context", "arguments": `{"shadow_id":"` + shadow + `"}`}}}}
		finish = "tool_calls"
	}
	out, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

func (c *callerUpstream) lastMarked() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.marked
}

// callerRequest is a chat request whose one tool result is content.
func callerRequest(content string) []byte {
	body, _ := json.Marshal(map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "which line failed?"},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
			"function": map[string]any{"name": "logs", "arguments": "{}"}}}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": content}}})
	return body
}

// sendAs posts body to the gateway at base with headers, and returns the
// answer.
func sendAs(base string, body []byte, header ...string) string {
	GinkgoHelper()
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/chat/completions", bytes.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	Expect(resp.StatusCode).To(Equal(200), string(out))
	return string(out)
}

// Through the command: originals are scoped to their
// caller, by API key or by --caller-header / caller.header.
var _ = Describe("toolout gateway serve scopes originals to their caller", func() {
	original := failedLog()
	shadow := gateway.ShadowID(original)

	// scoped runs the scenario: alice's request compresses the log; bob
	// sends alice's marker and compressed text back and his model asks to
	// expand it; then alice does.
	scoped := func(base string, up *callerUpstream, alice, bob []string) {
		Expect(sendAs(base, callerRequest(original), alice...)).To(ContainSubstring("saw original: false"))
		marked := up.lastMarked()
		Expect(marked).To(HavePrefix("<<<SHADOW:" + shadow + ">>>\n"))
		Expect(sendAs(base, callerRequest(marked), append(bob, "X-Test-Expand", "yes")...)).To(ContainSubstring("saw original: false"),
			"bob expanded alice's original")
		Expect(sendAs(base, callerRequest(marked), append(alice, "X-Test-Expand", "yes")...)).To(ContainSubstring("saw original: true"))
	}

	It("by API key, on the memory store", func() {
		up := &callerUpstream{}
		srv := up.serve(shadow)
		DeferCleanup(srv.Close)
		base := serveGateway(simpleConfig, srv.URL)
		scoped(base, up, []string{"Authorization", "Bearer sk-alice"}, []string{"Authorization", "Bearer sk-bob"})
	})

	It("by --caller-header, on Redis, and never writes a key or header value to Redis", func() {
		rs, err := redistest.Start(GinkgoT().TempDir())
		if err == redistest.ErrMissing {
			Skip(redistest.Missing)
		}
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(rs.Stop)
		up := &callerUpstream{}
		srv := up.serve(shadow)
		DeferCleanup(srv.Close)
		base, _, stderr := startGateway(simpleConfig+"store: {backend: redis, url: \""+rs.URL+"\"}\n", srv.URL, "--caller-header", "X-User-Id")
		Expect(stderr.String()).To(ContainSubstring("toolout gateway serve: originals scoped to the caller named by header X-User-Id (else by the API key)\n"))
		scoped(base, up, []string{"Authorization", "Bearer sk-shared", "X-User-Id", "alice-7f3"},
			[]string{"Authorization", "Bearer sk-shared", "X-User-Id", "bob-9c1"})
		dump := redisDump(rs.URL)
		Expect(dump).To(ContainSubstring("o:32:"), "originals are kept under a 32-digit caller hash")
		for _, secret := range []string{"sk-shared", "alice-7f3", "bob-9c1"} {
			Expect(dump).NotTo(ContainSubstring(secret))
		}
	})

	It("by caller.header in the config file", func() {
		up := &callerUpstream{}
		srv := up.serve(shadow)
		DeferCleanup(srv.Close)
		base := serveGateway(simpleConfig+"caller: {header: X-User-Id, salt: \"s3\"}\n", srv.URL)
		scoped(base, up, []string{"X-User-Id", "alice"}, []string{"X-User-Id", "bob"})
	})

	It("refuses caller.header that is not a header name, in one line", func() {
		cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
		Expect(os.WriteFile(cfg, []byte(simpleConfig+"caller: {header: \"X:User\"}\n"), 0o644)).To(Succeed())
		code, stdout, stderr := invoke("", "gateway", "serve", "--upstream", "http://127.0.0.1:1", "--config", cfg)
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout gateway serve: --config: caller.header \"X:User\": not an HTTP header name (byte 2)\n"))
	})

	DescribeTable("refuses a caller header that is not a header name, in one line",
		refused("x", "gateway"),
		Entry("flag", []string{"serve", "--upstream", "http://127.0.0.1:1", "--config", "testdata/gateway.yaml", "--caller-header", "X User"},
			"toolout gateway serve: --caller-header: header \"X User\": not an HTTP header name (byte 2)\n"),
	)
})

// redisDump returns every key of the server at url with its values, one
// line each, for a spec to search.
func redisDump(url string) string {
	GinkgoHelper()
	rc, err := redis.DialURL(url)
	Expect(err).NotTo(HaveOccurred())
	defer rc.Close()
	keys, err := redis.Strings(rc.Do("KEYS", "*"))
	Expect(err).NotTo(HaveOccurred())
	var b strings.Builder
	for _, k := range keys {
		typ, err := redis.String(rc.Do("TYPE", k))
		Expect(err).NotTo(HaveOccurred())
		var vals []string
		switch typ {
		case "hash":
			vals, err = redis.Strings(rc.Do("HGETALL", k))
		case "zset":
			vals, err = redis.Strings(rc.Do("ZRANGE", k, 0, -1))
		case "string":
			var v string
			v, err = redis.String(rc.Do("GET", k))
			vals = []string{v}
		}
		Expect(err).NotTo(HaveOccurred())
		fmt.Fprintf(&b, "%s %s %q\n", k, typ, vals)
	}
	return b.String()
}
