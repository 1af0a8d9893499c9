package openai_test

import (
	"bytes"
	"context"
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

// Specs of Client against misbehaving model servers (real TCP): it never
// follows a redirect, times out every attempt, and refuses an answer whose
// JSON shape is hostile before decoding it.

// TestClientNeverFollowsARedirect: a redirect (307 keeps the method and
// the body, 302 turns it into a GET; both keep the key on the same host)
// is an error naming the status and the Location, and the host it points
// to gets nothing: neither the tool output of the request nor the key,
// whatever http.Client is given (none, one that follows, one that does
// not).
func TestClientNeverFollowsARedirect(t *testing.T) {
	var reached atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		_, _ = io.WriteString(w, completion)
	}))
	defer other.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusFound, http.StatusPermanentRedirect} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/v1/chat/completions", code)
		}))
		for _, hc := range []*http.Client{nil, {Timeout: time.Minute}, {CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}} {
			c := openai.Client{BaseURL: srv.URL + "/v1", APIKey: "sk-secret", Model: "m", HTTP: hc, Retries: 2, Backoff: time.Millisecond}
			_, err := c.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: core.RoleTool, Content: "tool output"}}})
			want := http.StatusText(code) + ": redirected to " + other.URL + "/v1/chat/completions, not followed"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%d: err %v, want it to contain %q", code, err, want)
			}
		}
		srv.Close()
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("the host redirected to got %d requests", n)
	}
}

// TestClientTimesOutWithoutATimeout: an http.Client without a Timeout (or
// none) still bounds an attempt, at DefaultTimeout (shortened here), so a
// server that never answers does not hold the caller for ever.
func TestClientTimesOutWithoutATimeout(t *testing.T) {
	defer openai.SetDefaultTimeout(200 * time.Millisecond)()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	for _, hc := range []*http.Client{nil, {}} {
		done := make(chan error, 1)
		go func() {
			_, err := openai.Client{BaseURL: srv.URL, HTTP: hc}.Complete(context.Background(), core.Request{})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer within 200ms") {
				t.Fatalf("err %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no answer and no timeout after 20s")
		}
	}
}

// TestClientRefusesAHostileShape: an answer of ten million choices, or
// nested a million levels, is refused by its shape before it is decoded
// (encoding/json took 700 MB for the choices), with the bound and the
// byte where it was crossed.
func TestClientRefusesAHostileShape(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"choices":[` + strings.Repeat(`{},`, 10_000_000) + `{}]}`, "openai: chat response (200 OK): more than 200000 JSON values at byte"},
		{`{"choices":[{"message":{"content":"x"}}],"x":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}`,
			"openai: chat response (200 OK): JSON nested deeper than 256 levels at byte"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(w, bytes.NewReader([]byte(c.body)))
		}))
		_, err := openai.Client{BaseURL: srv.URL}.Complete(context.Background(), core.Request{})
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
}
