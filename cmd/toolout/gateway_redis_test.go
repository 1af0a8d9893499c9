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
	"strings"
	"syscall"
	"time"

	"github.com/gomodule/redigo/redis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/httpspec"
	"github.com/toolout/toolout/internal/redistest"
)

var _ = Describe("toolout gateway serve on a misbehaving Redis", func() {
	var srv *redistest.Server
	BeforeEach(func() {
		var err error
		srv, err = redistest.Start(GinkgoT().TempDir())
		if err == redistest.ErrMissing {
			Skip(redistest.Missing)
		}
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
	})

	It("passes results through while Redis hangs, within the URL's timeouts, and compresses again once it answers", func() {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
		}))
		DeferCleanup(up.Close)
		url := srv.URL + "?dial_timeout=300ms&read_timeout=300ms&write_timeout=300ms"
		base := replica(simpleConfig+"store: {backend: redis, url: \""+url+"\"}\n", up.URL)
		send := func(seed int) {
			var results []any
			for i := range 10 {
				results = append(results, map[string]any{"role": "tool", "tool_call_id": fmt.Sprint("c", i),
					"content": strings.Repeat(fmt.Sprintf("line seed=%d result=%d status=ok\n", seed, i), 200)})
			}
			body, _ := json.Marshal(map[string]any{"messages": append([]any{map[string]any{"role": "user", "content": "q"}}, results...)})
			resp, err := http.Post(base+"/v1/chat/completions", "application/json", bytes.NewReader(body))
			Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			out, _ := io.ReadAll(resp.Body)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), string(out))
		}
		compressed := func() string {
			_, text := httpspec.Get(base + "/metrics")
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, `toolout_gateway_compressions_total{result="ok"}`) {
					return l
				}
			}
			return text
		}

		Expect(srv.Pause()).To(Succeed())
		DeferCleanup(srv.Resume)
		start := time.Now()
		done := make(chan struct{}, 3)
		for range cap(done) {
			go func() { // requests at once share the pool
				defer GinkgoRecover()
				defer func() { done <- struct{}{} }()
				send(1)
			}()
		}
		send(1)
		for range cap(done) {
			<-done
		}
		Expect(time.Since(start)).To(BeNumerically("<", 3*time.Second), "one read timeout, plus at most a dial timeout's wait for a connection")
		Expect(compressed()).To(HaveSuffix(" 0"), "every result passed through")
		Expect(srv.Resume()).To(Succeed())
		send(2)
		Expect(compressed()).To(HaveSuffix(" 10"), "the pool serves again")
	})

	// serve runs gateway serve with config until its first line (or its
	// exit), then stops it, and returns its exit code and what it wrote to
	// stderr.
	serve := func(config string) (int, string) {
		cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
		Expect(os.WriteFile(cfg, []byte(config), 0o644)).To(Succeed())
		cmd := exec.Command(os.Args[0], "gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--config", cfg)
		cmd.Env = append(os.Environ(), "TOOLOUT_AS_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		Expect(cmd.Start()).To(Succeed())
		if _, err := bufio.NewReader(out).ReadString('\n'); err == nil {
			Expect(cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		}
		_, _ = io.Copy(io.Discard, out)
		_ = cmd.Wait()
		return cmd.ProcessState.ExitCode(), stderr.String()
	}

	It("refuses to start on a Redis that evicts any key, unless store.allow_eviction: one line, exit 2", func() {
		rc, err := redis.DialURL(srv.URL)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(rc.Close)
		Expect(rc.Do("CONFIG", "SET", "maxmemory-policy", "allkeys-lru")).To(Equal("OK"))
		code, stderr := serve(simpleConfig + "store: {backend: redis, url: \"" + srv.URL + "\"}\n")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout gateway serve: --config: store: redisstore: " + srv.URL + " evicts any key (maxmemory-policy allkeys-lru): " +
			"originals and the store's accounting would be lost; use noeviction or volatile-*, or set allow_eviction\n"))

		code, stderr = serve(simpleConfig + "store: {backend: redis, url: \"" + srv.URL + "\", allow_eviction: true}\n")
		Expect(code).To(Equal(0), stderr)
		Expect(stderr).To(HavePrefix("redisstore: " + srv.URL + " evicts any key (maxmemory-policy allkeys-lru), allowed: "))
		Expect(strings.Count(stderr, "\n")).To(Equal(1), stderr)
	})

	It("refuses to start on an unreachable Redis: one line, exit 2", func() {
		url := srv.URL
		Expect(srv.Stop()).To(Succeed())
		cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
		Expect(os.WriteFile(cfg, []byte(simpleConfig+"store: {backend: redis, url: \""+url+"\"}\n"), 0o644)).To(Succeed())
		cmd := exec.Command(os.Args[0], "gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--config", cfg)
		cmd.Env = append(os.Environ(), "TOOLOUT_AS_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		Expect(err).To(BeAssignableToTypeOf(exit))
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(2))
		Expect(stderr.String()).To(MatchRegexp(`^toolout gateway serve: --config: store: redisstore: redis://127\.0\.0\.1:\d+/0 unreachable: [^\n]*connection refused\n$`))
	})
})
