package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/bench"
	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// oracleScript is the scenario that scripts a model to answer as the
// oracles do, and the corpus cases it scripts (they use every step).
const (
	oracleScript  = "../../scenarios/bench/oracle-model.yaml"
	scriptedCases = `^(logs-10KB|text-cuts-1MB)$`
)

// untimed returns rows without their times, which vary between runs.
func untimed(rows []bench.Row) []bench.Row {
	out := append([]bench.Row(nil), rows...)
	for i := range out {
		out[i].Millis = 0
	}
	return out
}

// oracleRows and oracleTable are the oracle's comparison of the scripted
// cases (rows, and the CLI's table), computed once: the specs below compare
// with them, and the 1 MB case costs seconds under the race detector.
var (
	oracleRows = sync.OnceValues(func() ([]bench.Row, error) {
		cases := bench.Corpus(bench.BudgetFor(bench.DefaultKnobs()), regexp.MustCompile(scriptedCases).MatchString)
		return compareRuns(context.Background(), cases, []bench.Run{{Label: "default", Knobs: bench.DefaultKnobs()}}, nil, 1)
	})
	oracleTable = sync.OnceValues(func() (string, error) {
		code, table, stderr := invoke("", "bench", "strategies", "--cases", scriptedCases)
		if code != 0 {
			return "", fmt.Errorf("exit %d: %s", code, stderr)
		}
		return table, nil
	})
)

func scriptedLLM() *fakes.LLM {
	sc, err := harness.Load(components.Default(), oracleScript)
	Expect(err).NotTo(HaveOccurred())
	llm, err := fakes.NewLLM(sc.LLM, fakes.Options{})
	Expect(err).NotTo(HaveOccurred())
	return llm
}

var _ = Describe("toolout bench strategies with a model", func() {
	It("gives the oracle table when the model answers as the oracles do (in process: the --llm path minus HTTP)", func() {
		cases := bench.Corpus(bench.BudgetFor(bench.DefaultKnobs()), regexp.MustCompile(scriptedCases).MatchString)
		runs := []bench.Run{{Label: "default", Knobs: bench.DefaultKnobs()}}
		want, err := oracleRows()
		Expect(err).NotTo(HaveOccurred())
		llm := scriptedLLM()
		got, err := compareRuns(context.Background(), cases, runs, llm, 1)
		Expect(err).NotTo(HaveOccurred())
		Expect(untimed(got)).To(Equal(untimed(want)))
		Expect(llm.Check()).To(Succeed())
	})

	It("gives the same table with cases and requests in flight at once as one at a time", func() {
		cases := bench.Corpus(bench.BudgetFor(bench.DefaultKnobs()), regexp.MustCompile(scriptedCases).MatchString)
		runs, err := bench.ParseSweeps([]string{"overlap_percent=0", "max_chunks=20"})
		Expect(err).NotTo(HaveOccurred())
		one, err := compareRuns(context.Background(), cases, runs, scriptedLLM(), 1)
		Expect(err).NotTo(HaveOccurred())
		llm := scriptedLLM()
		four, err := compareRuns(context.Background(), cases, runs, llm, 4)
		Expect(err).NotTo(HaveOccurred())
		Expect(untimed(four)).To(Equal(untimed(one)))
		Expect(four).To(HaveLen(len(runs) * len(cases) * len(bench.Strategies)))
		Expect(llm.Check()).To(Succeed())
	})
})

// peer is a loopback server under test: handle answers every request;
// requests counts them and auth keeps the last Authorization header.
type peer struct {
	*httptest.Server
	requests atomic.Int64
	auth     atomic.Value
}

func startPeer(handle http.HandlerFunc) *peer {
	p := &peer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		p.auth.Store(r.Header.Get("Authorization"))
		_, _ = io.Copy(io.Discard, r.Body)
		handle(w, r)
	}))
	DeferCleanup(p.Close)
	return p
}

// answering answers every completion with the same text.
func answering(text string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openai.EncodeResponse(core.Response{Text: text}, "chatcmpl-1", "m"))
	}
}

var _ = Describe("toolout bench strategies --llm against a misbehaving peer", func() {
	// Every failure is one line, exit 1, no table, in bounded time (the
	// spec's own timeout: a hang would fail it).
	DescribeTable("fails in one line, without a table",
		func(ctx SpecContext, handle http.HandlerFunc, extra []string, wantErr string, wantRequests int64) {
			p := startPeer(handle)
			var out, errb strings.Builder
			args := append([]string{"bench", "strategies", "--cases", "^logs-10KB$", "--llm", p.URL + "/v1", "--model", "m"}, extra...)
			code := run(ctx, args, strings.NewReader(""), &out, &errb)
			Expect(code).To(Equal(1))
			Expect(out.String()).To(BeEmpty())
			Expect(errb.String()).To(MatchRegexp(`^toolout bench strategies: truncate on logs-10KB: model: bench\.main turn=1: ` + wantErr + `: no table\n$`))
			Expect(p.requests.Load()).To(Equal(wantRequests))
		},
		Entry("garbage", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "<html>not json\n</html>") },
			[]string{}, `openai: chat response: invalid character '<' looking for beginning of value`, int64(1), SpecTimeout(time.Minute)),
		Entry("a completion without choices", answeringRaw(`{"choices":[]}`),
			[]string{}, `openai: chat response: no choices`, int64(1), SpecTimeout(time.Minute)),
		Entry("500, retried", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
			[]string{"--retries", "2"}, `500 Internal Server Error: server error \(after 3 attempts\)`, int64(3), SpecTimeout(time.Minute)),
		Entry("429, not retried with --retries 0", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "slow down", 429) },
			[]string{"--retries", "0"}, `429 Too Many Requests: rate limited`, int64(1), SpecTimeout(time.Minute)),
		Entry("401, its body on one line", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad key\nsee docs", 401) },
			[]string{}, `401 Unauthorized: bad key see docs`, int64(1), SpecTimeout(time.Minute)),
		Entry("a hang, past --timeout", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			[]string{"--timeout", "200ms"}, `openai: POST http://127\.0\.0\.1:\d+/v1/chat/completions: no answer within 200ms: context deadline exceeded`, int64(1), SpecTimeout(time.Minute)),
		Entry("a body that stops, past --timeout", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, `{"choices":[`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}, []string{"--timeout", "200ms"}, `openai: POST http://127\.0\.0\.1:\d+/v1/chat/completions: no answer within 200ms: context deadline exceeded`, int64(1), SpecTimeout(time.Minute)),
		Entry("a closed connection", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}, []string{}, `Post "http://127\.0\.0\.1:\d+/v1/chat/completions": EOF`, int64(1), SpecTimeout(time.Minute)),
	)

	It("stops at the request budget: exit 1, no table, no request past it", func(ctx SpecContext) {
		for _, conc := range []string{"1", "4"} {
			p := startPeer(answering("NO RELEVANT DATA FOUND"))
			var out, errb strings.Builder
			code := run(ctx, []string{"bench", "strategies", "--cases", "^logs-10KB$", "--llm", p.URL + "/v1", "--model", "m", "--max-requests", "3", "--concurrency", conc},
				strings.NewReader(""), &out, &errb)
			Expect(code).To(Equal(1))
			Expect(out.String()).To(BeEmpty())
			Expect(errb.String()).To(Equal("toolout bench strategies: stopped: the request budget of 3 (--max-requests) is spent and the comparison needs more: no table\n"), "concurrency %s", conc)
			Expect(p.requests.Load()).To(Equal(int64(3)))
		}
	}, SpecTimeout(time.Minute))

	It("sends the key from $TOOLOUT_LLM_API_KEY, marks every format with the model, and refuses another model's baseline", func(ctx SpecContext) {
		GinkgoT().Setenv("TOOLOUT_LLM_API_KEY", "sk-spec")
		p := startPeer(answering("fact-1=9e3779b1"))
		dir := GinkgoT().TempDir()
		llm := []string{"bench", "strategies", "--cases", "^logs-10KB$", "--llm", "http://user:pw@" + strings.TrimPrefix(p.URL, "http://") + "/v1?k=secret", "--model", "m"}
		code, table, stderr := invoke("", append(llm, "--svg", filepath.Join(dir, "c.svg"), "--write-baseline", filepath.Join(dir, "m.json"))...)
		Expect(code).To(Equal(0), stderr)
		Expect(p.auth.Load()).To(Equal("Bearer sk-spec"))
		at := "m at " + p.URL + "/v1"
		Expect(table).To(HavePrefix("model: " + at + "\n"))
		Expect(table).NotTo(ContainSubstring("pw"))
		_, csv, _ := invoke("", append(llm, "--format", "csv")...)
		Expect(strings.Split(csv, "\n")[1]).To(HavePrefix(at + ",default,logs-10KB,"))
		_, js, _ := invoke("", append(llm, "--format", "json")...)
		Expect(js).To(HavePrefix("{\n  \"model\": {\n    \"name\": \"m\",\n    \"url\": \"" + p.URL + "/v1\"\n  },\n"))
		svg, err := os.ReadFile(filepath.Join(dir, "c.svg"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(svg)).To(ContainSubstring(">model: " + at + "</text>"))

		code, _, stderr = invoke("", "bench", "strategies", "--cases", "^logs-10KB$", "--baseline", filepath.Join(dir, "m.json"))
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout bench strategies: --baseline " + filepath.Join(dir, "m.json") + " was written from model: " + at + "; this run is model: oracle; refusing to compare them\n"))
		sent := p.requests.Load()
		code, _, stderr = invoke("", append(llm, "--baseline", "../../bench/baseline.json")...)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout bench strategies: --baseline ../../bench/baseline.json was written from model: oracle; this run is model: " + at + "; refusing to compare them\n"))
		Expect(p.requests.Load()).To(Equal(sent), "a refused baseline costs no request")
		code, _, stderr = invoke("", append(llm, "--baseline", filepath.Join(dir, "m.json"))...)
		Expect(code).To(Equal(0), stderr)
	}, SpecTimeout(time.Minute))

	DescribeTable("rejects bad model flags in one line",
		func(args []string, want string) {
			code, _, stderr := invoke("", append([]string{"bench", "strategies"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stderr).To(Equal("toolout bench strategies: " + want + "\n"))
		},
		Entry("--model alone", []string{"--model", "m"}, "--model needs --llm"),
		Entry("--max-requests alone", []string{"--max-requests", "3"}, "--max-requests needs --llm"),
		Entry("--llm alone", []string{"--llm", "http://127.0.0.1:1/v1"}, "--llm needs --model NAME"),
		Entry("not http", []string{"--llm", "ftp://x/v1", "--model", "m"}, `--llm "ftp://x/v1": want an http or https base URL, e.g. http://127.0.0.1:8080/v1`),
		Entry("no host", []string{"--llm", "127.0.0.1:8080", "--model", "m"}, `--llm "127.0.0.1:8080": want an http or https base URL, e.g. http://127.0.0.1:8080/v1`),
		Entry("a control character in the name", []string{"--llm", "http://x/v1", "--model", "a\nb"}, "--model: want up to 200 printable characters"),
		Entry("concurrency 0", []string{"--concurrency", "0"}, "--concurrency 0: want 1 to 256"),
		Entry("negative budget", []string{"--llm", "http://x/v1", "--model", "m", "--max-requests", "-1"}, "--max-requests -1: want 0 (no limit) or more"),
		Entry("no timeout", []string{"--llm", "http://x/v1", "--model", "m", "--timeout", "0s"}, "--timeout 0s: want a positive duration"),
	)
})

func answeringRaw(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, body) }
}

var _ = Describe("toolout bench strategies --llm against toolout serve", func() {
	It("reproduces the oracle table for the cases the oracle script scripts, and serve reports no unused step", func(ctx SpecContext) {
		serveCtx, stop := context.WithCancel(ctx)
		defer stop()
		var serveOut, serveErr lockedBuffer
		served := make(chan int, 1)
		go func() {
			served <- run(serveCtx, []string{"serve", oracleScript}, strings.NewReader(""), &serveOut, &serveErr)
		}()
		var url string
		Eventually(func() bool {
			var ok bool
			url, _, ok = strings.Cut(serveOut.String(), "\n")
			return ok
		}).WithTimeout(time.Minute).WithPolling(5*time.Millisecond).Should(BeTrue(), serveErr.String)
		Expect(url).To(MatchRegexp(`^http://127\.0\.0\.1:[0-9]+/v1$`))

		got := succeeds("", "bench", "strategies", "--cases", scriptedCases, "--llm", url, "--model", "scripted", "--concurrency", "2")
		want, err := oracleTable()
		Expect(err).NotTo(HaveOccurred())
		gotHead, gotTable, _ := strings.Cut(got, "\n")
		wantHead, wantTable, _ := strings.Cut(want, "\n")
		Expect(gotHead).To(Equal("model: scripted at " + url))
		Expect(wantHead).To(Equal("model: oracle"))
		Expect(gotTable).To(Equal(wantTable))

		stop()
		Eventually(served).WithTimeout(time.Minute).Should(Receive(Equal(0)), serveErr.String)
		Expect(serveErr.String()).To(MatchRegexp(`^toolout serve: stopped after \d+ request\(s\): every step answered as scripted\n$`))
	}, SpecTimeout(2*time.Minute))
})
