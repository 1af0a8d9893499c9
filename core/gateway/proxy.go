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

	"github.com/toolout/toolout/core"
)

// ChatPath is the endpoint the proxy transforms; other paths are forwarded
// unchanged.
const ChatPath = "/v1/chat/completions"

// RoundHeader tells the upstream which forward of a client request this is
// (1, then 2… after expansions).
const RoundHeader = "X-Toolout-Gateway-Round"

// maxBody bounds a request or response body the proxy reads.
const maxBody = 64 << 20

// Proxy is an HTTP handler in front of an OpenAI-compatible server: it
// applies the gateway to POST /v1/chat/completions (streaming or not) and
// forwards everything else as is.
type Proxy struct {
	// Gateway must use the OpenAI adapter.
	Gateway *Gateway
	// Upstream is the server's base URL, e.g. http://127.0.0.1:8080.
	Upstream *url.URL
	// Client defaults to http.DefaultClient.
	Client *http.Client
	// Logf receives one line per request.
	Logf func(format string, args ...any)

	passthrough *httputil.ReverseProxy
}

// NewProxy returns a Proxy for upstream.
func NewProxy(g *Gateway, upstream *url.URL, client *http.Client) *Proxy {
	if client == nil {
		client = http.DefaultClient
	}
	rp := httputil.NewSingleHostReverseProxy(upstream)
	rp.Transport = client.Transport
	return &Proxy{Gateway: g, Upstream: upstream, Client: client, passthrough: rp}
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
	if r.Method != http.MethodPost || r.URL.Path != ChatPath {
		p.passthrough.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "toolout gateway: cannot read the request body", http.StatusBadRequest)
		return
	}
	root, err := parseSpans(body)
	if err != nil {
		http.Error(w, "toolout gateway: "+err.Error(), http.StatusBadRequest)
		return
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
	var us *upstreamStatus
	switch {
	case errors.As(err, &us):
		copyHeaders(w.Header(), us.header)
		w.WriteHeader(us.code)
		_, _ = w.Write(us.body)
		return
	case err != nil:
		p.logf("gateway: %s: %v", r.URL.Path, err)
		http.Error(w, "toolout gateway: "+err.Error(), http.StatusBadGateway)
		return
	}
	p.logf("gateway: %s: %d output(s), %d round(s), %d expansion(s)", r.URL.Path, len(out.Results), out.Rounds, len(out.Expansions))
	copyHeaders(w.Header(), lastHeader)
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out.Response)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if !out.Capped {
		_, _ = w.Write(lastStream) // the model's own stream, as it came
		return
	}
	// Phantom calls were stripped: send the final message as one chunk.
	_, _ = w.Write(chunkOf(out.Response))
}

// forward posts fwd upstream. For a stream it reads the whole event stream
// and returns the completion it spells, with the raw stream.
func (p *Proxy) forward(ctx context.Context, clientHeader http.Header, fwd []byte, stream bool, round int) ([]byte, http.Header, []byte, error) {
	u := *p.Upstream
	u.Path = strings.TrimSuffix(u.Path, "/") + ChatPath
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(fwd))
	if err != nil {
		return nil, nil, nil, err
	}
	copyHeaders(req.Header, clientHeader)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(RoundHeader, strconv.Itoa(round))
	resp, err := p.Client.Do(req)
	if err != nil {
		return nil, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, nil, &upstreamStatus{code: resp.StatusCode, header: resp.Header, body: raw}
	}
	if !stream {
		return raw, resp.Header, nil, nil
	}
	completion, err := assembleStream(raw)
	return completion, resp.Header, raw, err
}

// assembleStream rebuilds a chat completion from server-sent chunks.
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
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), maxBody)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		data = strings.TrimSpace(data)
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
				resp.FinishReason = *ch.FinishReason
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gateway: stream: %w", err)
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
