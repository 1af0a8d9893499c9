package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
)

// fixed is a header value; in one that names the time d from when the
// case runs, as an HTTP date (whole seconds).
func fixed(v string) func() string { return func() string { return v } }

func in(d time.Duration) func() string {
	return func() string { return time.Now().Add(d).UTC().Format(http.TimeFormat) }
}

// TestClientWaitsAsTheServerAsks: a 429 or 503 that says when to come back
// (retry-after-ms, as OpenAI sends it, or Retry-After in seconds or as a
// date) is retried no earlier than that, when the wait is at most
// MaxRetryAfter; a longer or unreadable one falls back to Backoff, so the
// wait stays bounded whatever the server says.
func TestClientWaitsAsTheServerAsks(t *testing.T) {
	for _, tc := range []struct {
		name, header   string
		value          func() string
		atLeast, under time.Duration
	}{
		{"retry-after-ms", "Retry-After-Ms", fixed("300"), 300 * time.Millisecond, time.Minute},
		{"seconds", "Retry-After", fixed("1"), time.Second, time.Minute},
		{"a date", "Retry-After", in(2 * time.Second), 500 * time.Millisecond, time.Minute},
		{"too long: backoff", "Retry-After", fixed("999999"), 0, 30 * time.Second},
		{"a date too far: backoff", "Retry-After", in(1000 * time.Hour), 0, 30 * time.Second},
		{"unreadable: backoff", "Retry-After", fixed("soon"), 0, 30 * time.Second},
		{"negative: backoff", "Retry-After-Ms", fixed("-5"), 0, 30 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			value := tc.value()
			var mu sync.Mutex
			var at []time.Time
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				mu.Lock()
				at = append(at, time.Now())
				first := len(at) == 1
				mu.Unlock()
				if first {
					w.Header().Set(tc.header, value)
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				_, _ = w.Write([]byte(completion))
			}))
			defer srv.Close()
			c := openai.Client{BaseURL: srv.URL, Retries: 1, Backoff: time.Millisecond}
			if _, err := c.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "q"}}}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(at) != 2 {
				t.Fatalf("%d attempts, want 2", len(at))
			}
			if gap := at[1].Sub(at[0]); gap < tc.atLeast || gap >= tc.under {
				t.Errorf("retried after %v, want at least %v and under %v", gap, tc.atLeast, tc.under)
			}
		})
	}
}
