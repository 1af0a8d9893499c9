package record_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/record"
	"github.com/toolout/toolout/harness/serve"
)

const (
	overCap = "../../scenarios/session/over-cap-handle.yaml"
	secret  = "sk-proj-abcdefghijklmnopqrstuvwxyz0123"
	user    = `{"role":"user","content":"Count ERROR lines per host."}`
	call    = `{"role":"assistant","content":null,"tool_calls":[{"id":"call-1","type":"function","function":{"name":"logs__query","arguments":"{\"since\":\"1h\"}"}}]}`
	result  = `{"role":"tool","tool_call_id":"call-1","content":"web-1: 3 ERROR; token ` + secret + `"}`
	// The same conversation on Anthropic's wire.
	anthCall   = `{"role":"assistant","content":[{"type":"tool_use","id":"call-1","name":"logs__query","input":{"since":"1h"}}]}`
	anthResult = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"call-1","content":"web-1: 3 ERROR; token ` + secret + `"}]}`
)

// upstream serves a bundled scenario as the "real" model.
func upstream() *httptest.Server {
	srv, err := serve.Load([]string{overCap}, serve.Options{})
	Expect(err).NotTo(HaveOccurred())
	hs := httptest.NewServer(srv)
	DeferCleanup(hs.Close)
	return hs
}

// recording serves the scenario file through a recorder of up.
func recording(o record.Options, files ...string) *httptest.Server {
	rec, err := record.New(o)
	Expect(err).NotTo(HaveOccurred())
	var scs []*harness.Scenario
	for _, f := range files {
		scs = append(scs, &harness.Scenario{ID: strings.TrimSuffix(filepath.Base(f), ".yaml"), Component: "session", Path: f, File: f})
	}
	srv, err := serve.New(scs, serve.Options{Record: rec})
	Expect(err).NotTo(HaveOccurred())
	hs := httptest.NewServer(srv)
	DeferCleanup(hs.Close)
	return hs
}

func post(url, body string) (int, string) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, string(b)
}

// passes runs the scenario file once, as toolout test would.
func passes(file string) {
	sc, err := harness.Load(components.Default(), file)
	Expect(err).NotTo(HaveOccurred())
	res := (&harness.Runner{Registry: components.Default()}).Execute(context.Background(), sc)
	Expect(res.Failures).To(BeEmpty())
}

// onDisk is every file of dir, read.
func onDisk(dir string) string {
	var b strings.Builder
	entries, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		b.Write(data)
	}
	return b.String()
}

var _ = Describe("serve --record", func() {
	noKeys := func(string) string { return "" }

	DescribeTable("records a conversation, streamed and not, into a scenario that passes and replays, with no secret on disk",
		func(path, first, second string) {
			up := upstream()
			dir := GinkgoT().TempDir()
			file := filepath.Join(dir, "new.yaml")
			rec := recording(record.Options{Upstream: up.URL + "/v1", Env: noKeys}, file)
			code, body := post(rec.URL+path, first)
			Expect(code).To(Equal(200), body)
			Expect(body).To(ContainSubstring("logs__query"))
			Expect(file).NotTo(BeAnExistingFile()) // no answer yet: not a scenario yet
			code, body = post(rec.URL+path, second)
			Expect(code).To(Equal(200), body)
			Expect(body).To(ContainSubstring("Stored; will extract next."))
			Expect(file).To(BeAnExistingFile())
			Expect(onDisk(dir)).NotTo(ContainSubstring(secret))
			Expect(onDisk(dir)).To(ContainSubstring("<REDACTED_API_KEY_1>"))
			passes(file)

			replay, err := serve.Load([]string{file}, serve.Options{})
			Expect(err).NotTo(HaveOccurred())
			hs := httptest.NewServer(replay)
			defer hs.Close()
			for _, b := range []string{first, second} {
				code, body := post(hs.URL+path, b)
				Expect(code).To(Equal(200), body)
			}
			Expect(replay.Check()).To(Succeed())
		},
		Entry("OpenAI chat, not streamed then streamed", "/v1/chat/completions",
			`{"model":"m","messages":[`+user+`]}`, `{"model":"m","stream":true,"messages":[`+user+`,`+call+`,`+result+`]}`),
		Entry("Anthropic messages, streamed then not", "/v1/messages",
			`{"model":"m","max_tokens":100,"stream":true,"messages":[`+user+`]}`, `{"model":"m","max_tokens":100,"messages":[`+user+`,`+anthCall+`,`+anthResult+`]}`),
	)

	It("answers from the scenario's steps first, and with Only records every request", func() {
		up := upstream()
		rec, err := record.New(record.Options{Upstream: up.URL, Env: noKeys})
		Expect(err).NotTo(HaveOccurred())
		srv, err := serve.Load([]string{overCap}, serve.Options{Record: rec})
		Expect(err).NotTo(HaveOccurred())
		hs := httptest.NewServer(srv)
		defer hs.Close()
		code, _ := post(hs.URL+"/v1/chat/completions", `{"model":"m","messages":[`+user+`]}`)
		Expect(code).To(Equal(200))
		Expect(srv.Check()).NotTo(Succeed()) // the second step is unused: it answered the first itself
		Expect(record.LogPath(overCap)).NotTo(BeAnExistingFile())

		dir := GinkgoT().TempDir()
		file := filepath.Join(dir, "only.yaml")
		only := recording(record.Options{Upstream: up.URL, Env: noKeys, Only: true}, file)
		code, _ = post(only.URL+"/v1/chat/completions", `{"model":"m","messages":[`+user+`]}`)
		Expect(code).To(Equal(200))
		Expect(record.LogPath(file)).To(BeAnExistingFile())
	})

	It("answers 502 when the upstream is down, relays an error status, and records neither", func() {
		dir := GinkgoT().TempDir()
		file := filepath.Join(dir, "x.yaml")
		down := recording(record.Options{Upstream: "http://127.0.0.1:1/v1", Env: noKeys}, file)
		code, body := post(down.URL+"/v1/chat/completions", `{"model":"m","messages":[`+user+`]}`)
		Expect(code).To(Equal(502))
		Expect(body).To(ContainSubstring("toolout serve: upstream: http://127.0.0.1:1"))
		failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(529)
			_, _ = io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`)
		}))
		defer failing.Close()
		rec := recording(record.Options{Upstream: failing.URL, Env: noKeys}, file)
		code, body = post(rec.URL+"/v1/messages", `{"model":"m","max_tokens":10,"messages":[`+user+`]}`)
		Expect(code).To(Equal(529))
		Expect(body).To(ContainSubstring("overloaded_error"))
		Expect(record.LogPath(file)).NotTo(BeAnExistingFile())
	})

	It("sends the key from the environment, never the client's, and keeps it off disk", func() {
		var got []string
		var mu sync.Mutex
		model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got = append(got, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Api-Key"))
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"hi"}}]}`)
		}))
		defer model.Close()
		dir := GinkgoT().TempDir()
		env := map[string]string{"OPENAI_API_KEY": "sk-openai-key-0123456789abcdef", "ANTHROPIC_API_KEY": "sk-ant-key-0123456789abcdef"}
		rec := recording(record.Options{Upstream: model.URL, Env: func(k string) string { return env[k] }}, filepath.Join(dir, "k.yaml"))
		req, _ := http.NewRequest(http.MethodPost, rec.URL+"/v1/chat/completions", strings.NewReader(`{"model":"m","messages":[`+user+`]}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer client-placeholder")
		resp, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(got).To(Equal([]string{"Bearer sk-openai-key-0123456789abcdef|"}))
		Expect(onDisk(dir)).NotTo(ContainSubstring("0123456789abcdef"))
		Expect(onDisk(dir)).NotTo(ContainSubstring("client-placeholder"))
	})

	It("keeps two scenarios' recordings apart when their clients send at once", func() {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"hi"}}]}`)
		}))
		defer up.Close()
		dir := GinkgoT().TempDir()
		a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
		rec := recording(record.Options{Upstream: up.URL, Env: noKeys}, a, b)
		var wg sync.WaitGroup
		for _, id := range []string{"a", "b"} {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				code, _ := post(rec.URL+"/"+id+"/v1/chat/completions", `{"model":"m","messages":[`+user+`]}`)
				Expect(code).To(Equal(200))
			}()
		}
		wg.Wait()
		for _, f := range []string{a, b} {
			data, err := os.ReadFile(record.LogPath(f))
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.Count(string(data), "\n")).To(Equal(1))
		}
	})

	It("refuses an upstream that is not an http(s) URL, and a bad pattern", func() {
		_, err := record.New(record.Options{Upstream: "api.openai.com"})
		Expect(err).To(MatchError(`upstream "api.openai.com": want an http:// or https:// URL`))
		_, err = record.New(record.Options{Upstream: "http://x", Redact: []string{"("}})
		Expect(err).To(MatchError(ContainSubstring(`--redact "("`)))
	})
})

var _ = Describe("A recording's timing", func() {
	It("is kept in the scenario's stream steps, and --replay-speed 1 plays it within 20% (on the fake clock)", func() {
		up := upstream()
		dir := GinkgoT().TempDir()
		file := filepath.Join(dir, "t.yaml")
		rec := recording(record.Options{Upstream: up.URL, Env: func(string) string { return "" }}, file)
		post(rec.URL+"/v1/chat/completions", `{"model":"m","stream":true,"messages":[`+user+`]}`)
		post(rec.URL+"/v1/chat/completions", `{"model":"m","stream":true,"messages":[`+user+`,`+call+`,`+result+`]}`)
		data, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring("recorded:"))
		Expect(string(data)).To(ContainSubstring("first_byte:"))
		passes(file)
	})
})
