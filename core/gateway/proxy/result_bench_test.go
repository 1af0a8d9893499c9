package proxy_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// resultRequest is a chat-completions request carrying one tool result of
// about size bytes of log lines (each escaped newline a JSON escape), whose
// first line holds a 16-digit counter at counterAt, so that a caller can
// make every request's result new by rewriting those digits in place.
func resultRequest(size int) (body []byte, counterAt int) {
	head := `{"model":"m","messages":[{"role":"user","content":"which host failed?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"logs","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"run `
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("0000000000000000\\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "2026-11-28T12:00:%02d host=db-%d status=ok latency_ms=%d path=\\\"/v1/items\\\"\\n", i%60, i%7, i%300)
	}
	b.WriteString(`"}]}`)
	return []byte(b.String()), len(head)
}

// smallCompletion is the upstream's answer: a short text, no tool call.
const smallCompletion = `{"id":"cmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,` +
	`"message":{"role":"assistant","content":"db-3 failed at 12:00:41."},"finish_reason":"stop"}],` +
	`"usage":{"prompt_tokens":50000,"completion_tokens":9,"total_tokens":50009}}`

// BenchmarkResult200KB is the cost per request of a chat-completions
// request with one tool result of 200 KB, sent to a handler in this process
// (no client connection) that forwards it to a local upstream: the
// gateway's proxy (strategy simple, expand_context offered, a memory store,
// max_bytes 262144 as the memory figures of docs/benchmarks.md), with a new
// result each request (compressed and stored) and with the same result
// each time (a cache hit), and a plain httputil.ReverseProxy (the floor)
// on the same request. ns/op and B/op hold the upstream's reading of the
// body too, the same for all three.
func BenchmarkResult200KB(b *testing.B) {
	var marked atomic.Bool // the last body the upstream got held a shadow marker
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		marked.Store(bytes.Contains(got, []byte(gateway.ShadowPrefix)))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, smallCompletion)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	pipe, err := gateway.NewPipe(gateway.Options{
		Config:     gateway.Config{MinBytes: 2048, MaxBytes: 262144, RateLimit: 100000},
		Compressor: gateway.Simple{Words: 50},
		Store:      memstore.NewBounded(gateway.StoreOptions{}),
	})
	if err != nil {
		b.Fatal(err)
	}
	gw := proxy.New(&gateway.Gateway{Pipe: pipe, Wire: openai.Wire{}, Expand: true}, u, up.Client())
	floor := httputil.NewSingleHostReverseProxy(u)
	floor.Transport = up.Client().Transport
	body, at := resultRequest(200 << 10)
	seq := 0 // across runs too: -count 6 makes six runs of gateway=new
	run := func(b *testing.B, h http.Handler, fresh, compressed bool) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if fresh {
				seq++
				copy(body[at:], fmt.Sprintf("%016d", seq))
			}
			req := httptest.NewRequest(http.MethodPost, openai.Path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
		if marked.Load() != compressed {
			b.Fatalf("the upstream got a shadow marker: %v, want %v", marked.Load(), compressed)
		}
	}
	b.Run("gateway=new", func(b *testing.B) { run(b, gw, true, true) })
	b.Run("gateway=repeated", func(b *testing.B) { run(b, gw, false, true) })
	b.Run("floor", func(b *testing.B) { run(b, floor, false, false) })
}
