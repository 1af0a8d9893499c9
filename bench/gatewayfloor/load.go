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
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// upstream is the fake model server: OpenAI chat completions, a JSON
// answer to a request without "stream":true and an event stream to one
// with it. A stream's first event goes out at once; the rest waits until
// the client has read that first byte (proceed) or a second has passed,
// as a model streams while it still generates: a proxy that held the
// stream back would show it in the time to first byte.
type upstream struct {
	srv     *http.Server
	URL     string
	proceed chan struct{}
}

const (
	answerJSON = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"the host db-3 failed"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`
	firstEvent = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"the host"}}]}` + "\n\n"
	lastEvents = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" db-3 failed"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
)

func startUpstream() (*upstream, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	u := &upstream{URL: "http://" + ln.Addr().String(), proceed: make(chan struct{}, 1)}
	u.srv = &http.Server{Handler: http.HandlerFunc(u.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = u.srv.Serve(ln) }()
	return u, nil
}

func (u *upstream) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !bytes.Contains(body, []byte(`"stream":true`)) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answerJSON)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = io.WriteString(w, firstEvent)
	w.(http.Flusher).Flush()
	select {
	case <-u.proceed:
	case <-time.After(time.Second):
	case <-r.Context().Done():
		return
	}
	_, _ = io.WriteString(w, lastEvents)
}

func (u *upstream) Close() { _ = u.srv.Close() }

// newClient is the load's HTTP client: a pool as large as the most
// clients at once, so that the clients open no connection while they
// measure.
func newClient() *http.Client {
	return &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute,
		DisableCompression: true,
	}}
}

// passthroughBody is a request with no tool result: nothing to compress.
const passthroughBody = `{"model":"m","messages":[{"role":"user","content":"which host failed?"}]}`

// streamBody is passthroughBody, streamed.
const streamBody = `{"model":"m","stream":true,"messages":[{"role":"user","content":"which host failed?"}]}`

// toolBody is a request that carries result as a tool output.
func toolBody(result string) []byte {
	content, _ := json.Marshal(result)
	return []byte(`{"model":"m","messages":[{"role":"user","content":"which host failed?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"logs","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":` + string(content) + `}]}`)
}

// logResult is a log of about size bytes whose every line names seed, so
// that two seeds give two results that share no line.
func logResult(seed, size int) string {
	var b strings.Builder
	b.Grow(size + 100)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "2026-11-28T12:%02d:%02d run=%d line=%d host=db-%d status=%s latency_ms=%d\n",
			i/60%60, i%60, seed, i, i%7, [2]string{"ok", "FAILED"}[min(i%97, 1)^1], i*7%1000)
	}
	return b.String()[:size]
}

// post sends body to base's chat completions path and reads the whole
// answer, which must be a 200.
func post(ctx context.Context, c *http.Client, base string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer bench")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: status %s", base, resp.Status)
	}
	return err
}

// throughput runs conc clients sending body to base back to back for d
// and returns the answers per second.
func throughput(c *http.Client, base string, body []byte, conc int, d time.Duration) (float64, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for range conc {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := post(ctx, c, base, body); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	return float64(n.Load()) / time.Since(start).Seconds(), first
}

// timed is the time one post takes.
func timed(c *http.Client, base string, body []byte) (time.Duration, error) {
	start := time.Now()
	err := post(context.Background(), c, base, body)
	return time.Since(start), err
}

// ttfb is the time to the first byte of a streamed answer's body from
// base; it then lets the upstream finish the stream and reads it whole.
func ttfb(c *http.Client, u *upstream, base string) (time.Duration, error) {
	start := time.Now()
	req, err := http.NewRequest(http.MethodPost, base+"/v1/chat/completions", strings.NewReader(streamBody))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer bench")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	if _, err := rd.ReadByte(); err != nil {
		return 0, fmt.Errorf("%s: first byte of the stream: %w", base, err)
	}
	d := time.Since(start)
	u.proceed <- struct{}{}
	rest, err := io.ReadAll(rd)
	if err != nil {
		return d, fmt.Errorf("%s: the stream after its first byte: %w", base, err)
	}
	if !bytes.HasSuffix(rest, []byte("[DONE]\n\n")) {
		return d, fmt.Errorf("%s: the stream ended without [DONE]: %q", base, rest)
	}
	return d, nil
}

// cpuPerRequest sends n bodies (body(i) for i in 0..n-1) to base from conc
// clients and returns the CPU time process pid spent meanwhile, per
// request.
func cpuPerRequest(c *http.Client, pid int, base string, body func(int) []byte, n, conc int) (float64, error) {
	before, err := cpuOf(pid)
	if err != nil {
		return 0, err
	}
	var next atomic.Int64
	errs := make(chan error, conc)
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				if err := post(context.Background(), c, base, body(i)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	after, err := cpuOf(pid)
	if err != nil {
		return 0, err
	}
	return perRequest(after-before, n), nil
}
