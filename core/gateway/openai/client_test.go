package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
)

const completion = `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"done"}}]}`

// TestClientSendsTheTag: with SendTag the request's tag travels as the
// X-Toolout-Tag header, in Tag.String's form; without it, no header.
func TestClientSendsTheTag(t *testing.T) {
	got := make(chan string, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get(openai.TagHeader) + "|" + r.Header.Get("Authorization")
		_, _ = io.WriteString(w, completion)
	}))
	defer srv.Close()
	req := core.Request{Tag: core.Tag{Site: core.SiteExtractMap, Chunk: 2, Chunks: 5}, Messages: []core.Message{{Role: core.RoleUser, Content: "x"}}}
	for _, c := range []openai.Client{
		{BaseURL: srv.URL + "/v1/", Model: "m", SendTag: true, APIKey: "k"},
		{BaseURL: srv.URL + "/v1", Model: "m"},
	} {
		if _, err := c.Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := <-got, <-got; a != "extract.map chunk=2/5|Bearer k" || b != "|" {
		t.Fatalf("headers: %q, %q", a, b)
	}
}

// TestClientRetries429And5xx: a 429 then a 503 then an answer succeeds in
// three attempts; a server that always fails is tried Retries+1 times and
// the error names the status and the attempts; a 400 is not retried.
func TestClientRetries429And5xx(t *testing.T) {
	var n atomic.Int64
	statuses := []int{429, 503}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		switch {
		case r.URL.Path == "/bad/chat/completions":
			http.Error(w, "bad\nrequest", http.StatusBadRequest)
		case r.URL.Path == "/down/chat/completions":
			http.Error(w, "down", http.StatusInternalServerError)
		case i < len(statuses):
			http.Error(w, "busy", statuses[i])
		default:
			_, _ = io.WriteString(w, completion)
		}
	}))
	defer srv.Close()
	req := core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "x"}}}
	c := openai.Client{BaseURL: srv.URL, Retries: 2, Backoff: time.Millisecond}
	resp, err := c.Complete(context.Background(), req)
	if err != nil || resp.Text != "done" || n.Load() != 3 {
		t.Fatalf("resp %+v, err %v, %d attempts", resp, err, n.Load())
	}
	n.Store(10)
	c.BaseURL = srv.URL + "/down"
	_, err = c.Complete(context.Background(), req)
	if !errors.Is(err, core.ErrServer) || err.Error() != "500 Internal Server Error: server error (after 3 attempts)" || n.Load() != 13 {
		t.Fatalf("err %v, %d attempts", err, n.Load()-10)
	}
	c.BaseURL = srv.URL + "/bad"
	_, err = c.Complete(context.Background(), req)
	if err == nil || err.Error() != "400 Bad Request: bad request" || n.Load() != 14 {
		t.Fatalf("err %v, %d attempts", err, n.Load()-13)
	}
}

// TestClientStopsRetryingWhenTheContextEnds: a wait between attempts ends
// with the context, and the error says so.
func TestClientStopsRetryingWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "slow down", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	// The context ends once the first answer has been read and closed.
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			resp.Body = onClose{resp.Body, cancel}
		}
		return resp, err
	})}
	c := openai.Client{BaseURL: srv.URL, Retries: 5, Backoff: time.Hour, HTTP: hc}
	_, err := c.Complete(ctx, core.Request{})
	if !errors.Is(err, core.ErrRateLimited) || !strings.Contains(err.Error(), "after 1 attempts, waiting to retry: context canceled") {
		t.Fatalf("err %v", err)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type onClose struct {
	io.ReadCloser
	then func()
}

func (c onClose) Close() error {
	err := c.ReadCloser.Close()
	c.then()
	return err
}

// FuzzClientAnswer holds Complete to its properties on any answer of a
// peer (status and body, served from memory): it never panics, an error is
// one line, and an answer it accepts came with status 200 and a JSON body
// with a choice.
func FuzzClientAnswer(f *testing.F) {
	for _, seed := range []struct {
		status int
		body   string
	}{
		{200, completion},
		{200, `{"choices":[]}`},
		{200, "<html>\nnot json"},
		{200, `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c","function":{"name":"x","arguments":"{"}}]}}]}`},
		{400, "bad\nrequest\r\n\x00"},
		{429, ""},
		{503, `{"error":"down"}`},
		{302, ""},
	} {
		f.Add(seed.status, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			status = 200 + (status%800+800)%800
		}
		hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(string(body))), Header: http.Header{}, Request: r}, nil
		})}
		c := openai.Client{BaseURL: "http://peer.invalid/v1", Model: "m", HTTP: hc, Retries: 1, Backoff: time.Nanosecond}
		resp, err := c.Complete(context.Background(), core.Request{Tag: core.Tag{Site: "x"}})
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error on more than one line: %q", err)
			}
			return
		}
		if status != 200 || !hasMessage(body) {
			t.Fatalf("accepted status %d body %q as %+v", status, body, resp)
		}
	})
}

// hasMessage tells whether body is JSON whose first choice may hold a
// message object: keys are matched as encoding/json matches them, case
// folded, so any key equal to "choices" (then "message") under folding
// may be the one read (of several, the last in the document is, which a
// map does not keep).
func hasMessage(body []byte) bool {
	var root map[string]json.RawMessage
	if json.Unmarshal(body, &root) != nil {
		return false
	}
	for _, raw := range folded(root, "choices") {
		var choices []map[string]json.RawMessage
		if json.Unmarshal(raw, &choices) != nil || len(choices) == 0 {
			continue
		}
		for _, m := range folded(choices[0], "message") {
			var msg map[string]json.RawMessage
			if json.Unmarshal(m, &msg) == nil && msg != nil {
				return true
			}
		}
	}
	return false
}

// folded returns the values of m's keys equal to key under case folding.
func folded(m map[string]json.RawMessage, key string) []json.RawMessage {
	var vs []json.RawMessage
	for k, v := range m {
		if strings.EqualFold(k, key) {
			vs = append(vs, v)
		}
	}
	return vs
}
