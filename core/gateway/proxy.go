package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/toolout/toolout/core"
)

// ChatPath is the endpoint the proxy transforms; other paths are forwarded
// unchanged.
const ChatPath = "/v1/chat/completions"

// RoundHeader tells the upstream which forward of a client request this is
// (1, then 2… after expansions).
const RoundHeader = "X-Toolout-Gateway-Round"

// Paths the proxy serves itself.
const (
	HealthPath  = "/healthz"
	MetricsPath = "/metrics"
)

// Proxy is an HTTP handler in front of an OpenAI-compatible server: it
// applies the gateway to POST /v1/chat/completions (streaming or not),
// answers GET /healthz (and GET /metrics when Metrics is set), and forwards
// everything else as is. Every request is bounded by Limits.
type Proxy struct {
	// Gateway must use the OpenAI adapter.
	Gateway *Gateway
	// Upstream is the server's base URL, e.g. http://127.0.0.1:8080.
	Upstream *url.URL
	// Client defaults to http.DefaultClient.
	Client *http.Client
	// Logf receives one line per request.
	Logf func(format string, args ...any)
	// Limits bound each request; NewProxy sets the defaults.
	Limits Limits
	// Observer receives the events (default: none).
	Observer Observer
	// Metrics, when set, serves GET /metrics.
	Metrics http.Handler

	// Sources supplies the clock of the upstream latency.
	Sources core.Sources

	passthrough  *httputil.ReverseProxy
	inflightOnce sync.Once
	inflight     chan struct{}
}

// NewProxy returns a Proxy for upstream with the default limits; set
// Limits, Observer and Metrics before serving.
func NewProxy(g *Gateway, upstream *url.URL, client *http.Client) *Proxy {
	if client == nil {
		client = http.DefaultClient
	}
	rp := httputil.NewSingleHostReverseProxy(upstream)
	rp.Transport = client.Transport
	return &Proxy{Gateway: g, Upstream: upstream, Client: client, passthrough: rp, Limits: Limits{}.WithDefaults(), Observer: NopObserver{}}
}

// upstreamStatus is a non-200 upstream answer, relayed to the client as is.
type upstreamStatus struct {
	code   int
	header http.Header
	body   []byte
}

func (e *upstreamStatus) Error() string {
	return fmt.Sprintf("%v: %d %s", ErrUpstream, e.code, strings.TrimSpace(string(e.body[:min(len(e.body), 200)])))
}

func (e *upstreamStatus) Unwrap() error { return ErrUpstream }

// hop-by-hop and recomputed headers, not copied between client and upstream.
var skipHeaders = map[string]bool{"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Te": true, "Trailer": true,
	"Transfer-Encoding": true, "Upgrade": true, "Content-Length": true, "Accept-Encoding": true}

func copyHeaders(dst, src http.Header) {
	for k, vs := range src {
		if !skipHeaders[http.CanonicalHeaderKey(k)] {
			dst[k] = append([]string(nil), vs...)
		}
	}
}

func (p *Proxy) logf(format string, args ...any) {
	if p.Logf != nil {
		p.Logf(format, args...)
	}
}

// ServeHTTP handles one client request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == HealthPath:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	case r.Method == http.MethodGet && r.URL.Path == MetricsPath && p.Metrics != nil:
		p.Metrics.ServeHTTP(w, r)
	case r.Method == http.MethodPost && r.URL.Path == ChatPath:
		outcome := p.serveChat(w, r)
		p.observer().Request(p.Gateway.Adapter.Name(), outcome)
	default:
		p.passthrough.ServeHTTP(w, r)
		p.observer().Request("passthrough", OutcomeOK)
	}
}

func (p *Proxy) observer() Observer {
	if p.Observer == nil {
		return NopObserver{}
	}
	return p.Observer
}

// refuse answers a request the gateway will not handle, with a one-line
// reason, and returns the outcome to count.
func (p *Proxy) refuse(w http.ResponseWriter, code int, outcome, limit, msg string) string {
	if limit != "" {
		p.observer().Limited(limit)
	}
	if code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	http.Error(w, "toolout gateway: "+msg, code)
	return outcome
}

// readBody reads a request body within the limits: its size, then its JSON
// shape (one pass without allocation), then that it is an object.
func (p *Proxy) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *jnode, func() string) {
	l := p.Limits.WithDefaults()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, l.MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, nil, func() string {
			return p.refuse(w, http.StatusRequestEntityTooLarge, OutcomeTooLarge, LimitBodyBytes, fmt.Sprintf("request body larger than %d bytes", l.MaxBodyBytes))
		}
	case err != nil:
		return nil, nil, func() string {
			return p.refuse(w, http.StatusBadRequest, OutcomeBadRequest, "", "cannot read the request body: "+err.Error())
		}
	}
	if err := CheckJSONShape(body, l.MaxJSONValues, l.MaxJSONNesting); err != nil {
		le := err.(*LimitError)
		code := http.StatusRequestEntityTooLarge
		if le.Limit == LimitJSONNesting {
			code = http.StatusBadRequest
		}
		return nil, nil, func() string { return p.refuse(w, code, OutcomeTooLarge, le.Limit, "request body: "+le.Error()) }
	}
	root, err := parseSpans(body)
	if err == nil && root.kind != '{' {
		err = errors.New("the request body must be a JSON object")
	}
	if err != nil {
		return nil, nil, func() string {
			return p.refuse(w, http.StatusBadRequest, OutcomeBadRequest, "", "request body: "+err.Error())
		}
	}
	return body, root, nil
}

// serveChat runs one chat request through the gateway and returns its
// outcome.
func (p *Proxy) serveChat(w http.ResponseWriter, r *http.Request) string {
	p.initInflight()
	select {
	case p.inflight <- struct{}{}:
		defer func() { <-p.inflight }()
	default:
		return p.refuse(w, http.StatusServiceUnavailable, OutcomeOverloaded, LimitConcurrency,
			fmt.Sprintf("more than %d requests in flight; retry", cap(p.inflight)))
	}
	body, root, refused := p.readBody(w, r)
	if refused != nil {
		return refused()
	}
	stream := root.get("stream") != nil && root.get("stream").kind == 't'
	var lastHeader http.Header
	var lastStream []byte
	up := func(ctx context.Context, round int, fwd []byte) ([]byte, error) {
		resp, header, raw, err := p.forward(ctx, r.Header, fwd, stream, round)
		lastHeader, lastStream = header, raw
		return resp, err
	}
	out, err := p.Gateway.Handle(r.Context(), body, up)
	if err != nil {
		return p.fail(w, r, err)
	}
	p.logf("gateway: %s: %d output(s), %d round(s), %d expansion(s)", r.URL.Path, len(out.Results), out.Rounds, len(out.Expansions))
	for _, e := range out.Expansions {
		p.observer().Expansion(e.Answer)
	}
	for _, res := range out.Results {
		switch {
		case strings.HasPrefix(res.Reason, "limit: max_results"):
			p.observer().Limited(LimitResults)
		case strings.HasPrefix(res.Reason, "limit: max_work_bytes"):
			p.observer().Limited(LimitWork)
		}
	}
	copyHeaders(w.Header(), lastHeader)
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out.Response)
		return OutcomeOK
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if !out.Capped && !bytes.Contains(lastStream, []byte(`"`+ExpandToolName+`"`)) {
		_, _ = w.Write(lastStream) // the model's own stream, as it came
		return OutcomeOK
	}
	// Phantom calls were stripped, or the stream names the phantom tool in
	// a way the assembly may not have seen as a call: never relay it, send
	// the final message as one chunk.
	final, err := p.Gateway.Adapter.StripPhantom(out.Response)
	if err != nil {
		final = out.Response
	}
	_, _ = w.Write(chunkOf(final))
	return OutcomeOK
}

func (p *Proxy) initInflight() {
	p.inflightOnce.Do(func() { p.inflight = make(chan struct{}, p.Limits.WithDefaults().MaxConcurrent) })
}

// fail answers a request whose handling failed: an upstream status is
// relayed as is, a timeout is 504, a client that went away gets nothing,
// anything else is 502.
func (p *Proxy) fail(w http.ResponseWriter, r *http.Request, err error) string {
	var us *upstreamStatus
	switch {
	case errors.As(err, &us):
		copyHeaders(w.Header(), us.header)
		w.WriteHeader(us.code)
		_, _ = w.Write(us.body)
		return OutcomeUpstreamError
	case r.Context().Err() != nil:
		p.logf("gateway: %s: client went away: %v", r.URL.Path, err)
		return OutcomeCanceled
	case errors.Is(err, context.DeadlineExceeded):
		p.logf("gateway: %s: %v", r.URL.Path, err)
		http.Error(w, "toolout gateway: upstream timed out: "+err.Error(), http.StatusGatewayTimeout)
		return OutcomeUpstreamError
	case errors.Is(err, ErrUpstream):
		p.logf("gateway: %s: %v", r.URL.Path, err)
		http.Error(w, "toolout gateway: "+err.Error(), http.StatusBadGateway)
		return OutcomeUpstreamError
	}
	p.logf("gateway: %s: %v", r.URL.Path, err)
	http.Error(w, "toolout gateway: "+err.Error(), http.StatusBadGateway)
	return OutcomeFailed
}

// forward posts fwd upstream. For a stream it reads the whole event stream
// and returns the completion it spells, with the raw stream.
func (p *Proxy) forward(ctx context.Context, clientHeader http.Header, fwd []byte, stream bool, round int) ([]byte, http.Header, []byte, error) {
	l := p.Limits.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, l.UpstreamTimeout)
	defer cancel()
	u := *p.Upstream
	u.Path = strings.TrimSuffix(u.Path, "/") + ChatPath
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(fwd))
	if err != nil {
		return nil, nil, nil, err
	}
	copyHeaders(req.Header, clientHeader)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(RoundHeader, strconv.Itoa(round))
	start := p.Sources.Time()
	resp, err := p.Client.Do(req)
	if err != nil {
		p.observer().Upstream(p.Gateway.Adapter.Name(), 0, p.Sources.Time().Sub(start))
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrUpstream, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, l.MaxResponseBytes+1))
	p.observer().Upstream(p.Gateway.Adapter.Name(), resp.StatusCode, p.Sources.Time().Sub(start))
	switch {
	case err != nil:
		return nil, nil, nil, fmt.Errorf("%w: reading the response: %w", ErrUpstream, err)
	case int64(len(raw)) > l.MaxResponseBytes:
		return nil, nil, nil, fmt.Errorf("%w: response larger than %d bytes", ErrUpstream, l.MaxResponseBytes)
	case resp.StatusCode != http.StatusOK:
		return nil, nil, nil, &upstreamStatus{code: resp.StatusCode, header: resp.Header, body: raw}
	case !stream:
		return raw, resp.Header, nil, nil
	}
	completion, err := assembleStream(raw)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrUpstream, err)
	}
	return completion, resp.Header, raw, nil
}

// assembleStream rebuilds a chat completion from server-sent chunks. A
// stream that ends before a finish_reason or [DONE] was cut, and is an
// error: a partial answer must not pass for a whole one.
func assembleStream(raw []byte) ([]byte, error) {
	type delta struct {
		Content   string `json:"content"`
		ToolCalls []struct {
			Index    int    `json:"index"`
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	var resp core.Response
	var text strings.Builder
	calls := map[int]*core.ToolCall{}
	args := map[int]*strings.Builder{}
	order := []int{}
	ended := false // a finish_reason or [DONE] was seen: the stream was not cut
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), len(raw)+1)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			ended = true
		}
		if !ok || data == "" || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta        delta   `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return nil, fmt.Errorf("gateway: stream chunk: %w", err)
		}
		for _, ch := range chunk.Choices {
			text.WriteString(ch.Delta.Content)
			for _, tc := range ch.Delta.ToolCalls {
				c, ok := calls[tc.Index]
				if !ok {
					c = &core.ToolCall{}
					calls[tc.Index], args[tc.Index] = c, &strings.Builder{}
					order = append(order, tc.Index)
				}
				if tc.ID != "" {
					c.ID = tc.ID
				}
				if tc.Function.Name != "" {
					c.Name = tc.Function.Name
				}
				args[tc.Index].WriteString(tc.Function.Arguments)
			}
			if ch.FinishReason != nil {
				resp.FinishReason, ended = *ch.FinishReason, true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gateway: stream: %w", err)
	}
	if !ended {
		return nil, errors.New("gateway: stream: ended before a finish_reason or [DONE] (cut)")
	}
	resp.Text = text.String()
	for _, i := range order {
		c := calls[i]
		c.Arguments = json.RawMessage(args[i].String())
		resp.ToolCalls = append(resp.ToolCalls, *c)
	}
	return EncodeChatResponse(resp, "stream", ""), nil
}

// chunkOf renders a chat completion as a one-chunk event stream.
func chunkOf(completion []byte) []byte {
	resp, err := DecodeChatResponse(completion)
	if err != nil {
		return []byte("data: [DONE]\n\n")
	}
	type call struct {
		Index    int    `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	d := map[string]any{"role": "assistant", "content": resp.Text}
	var calls []call
	for i, tc := range resp.ToolCalls {
		c := call{Index: i, ID: tc.ID, Type: "function"}
		c.Function.Name, c.Function.Arguments = tc.Name, string(tc.Arguments)
		calls = append(calls, c)
	}
	if len(calls) > 0 {
		d["tool_calls"] = calls
	}
	chunk, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk",
		"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": resp.FinishReason}}})
	return []byte("data: " + string(chunk) + "\n\ndata: [DONE]\n\n")
}
