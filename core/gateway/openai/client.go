package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// TagHeader is the header that carries a request's tag (core.Tag.String,
// e.g. "extract.map chunk=2/5") when Client.SendTag is set, so that a
// scripted server (toolout serve) can match the request to a step by the
// same facts as in process.
const TagHeader = "X-Toolout-Tag"

// MaxResponseBytes bounds a chat completion the Client reads; a longer body
// is an error.
const MaxResponseBytes = 64 << 20

// Bounds on the JSON of an answer, checked before it is decoded: the
// gateway's bounds on a request (gateway.DefaultMaxJSONValues structural
// tokens, gateway.DefaultMaxJSONNesting levels). A completion the Client
// asks for (one choice, no logprobs) holds a few dozen.
const (
	MaxResponseValues  = gateway.DefaultMaxJSONValues
	MaxResponseNesting = gateway.DefaultMaxJSONNesting
)

// DefaultTimeout bounds an attempt when Client.HTTP is nil or has no
// Timeout.
const DefaultTimeout = 2 * time.Minute

// defaultTimeout is DefaultTimeout; a spec shortens it.
var defaultTimeout = DefaultTimeout

// Client is a core.LLM over an OpenAI-compatible chat-completions
// endpoint, used by the external_provider strategy and by `toolout bench
// strategies --llm`.
type Client struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1.
	BaseURL string
	APIKey  string
	Model   string
	// HTTP sends the requests (nil: http.DefaultClient's transport). Its
	// Timeout bounds each attempt (zero: DefaultTimeout). Its CheckRedirect
	// is not used: the Client never follows a redirect (a 3xx is an
	// error), so neither the request's tool output nor the key reaches a
	// host nobody configured.
	HTTP *http.Client
	// SendTag sends the request's tag as the TagHeader header.
	SendTag bool
	// Retries is how many times a 429 or 5xx answer is retried (zero: never).
	// Each waits as long as the answer asks (retry-after-ms or Retry-After,
	// up to MaxRetryAfter), or else doubles from Backoff (zero: 500ms),
	// capped at eight times it; an ended context stops them.
	Retries int
	Backoff time.Duration
}

// Complete posts the request to BaseURL/chat/completions. 429 wraps
// core.ErrRateLimited and 5xx core.ErrServer; with Retries they are tried
// again first, and the error says how many attempts were made.
func (c Client) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body := EncodeRequest(req, c.Model)
	wait := c.Backoff
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	for attempt := 1; ; attempt++ {
		resp, retry, after, err := c.once(ctx, req.Tag, body)
		if !retry || attempt > c.Retries {
			if err != nil && retry && attempt > 1 {
				err = fmt.Errorf("%w (after %d attempts)", err, attempt)
			}
			return resp, err
		}
		if after <= 0 {
			after = min(wait<<(attempt-1), 8*wait)
		}
		if core.Sleep(ctx, after) != nil {
			return core.Response{}, fmt.Errorf("%w (after %d attempts, waiting to retry: %w)", err, attempt, context.Cause(ctx))
		}
	}
}

// MaxRetryAfter is the longest wait a server's retry-after-ms or
// Retry-After header may ask for; a longer one (or one that cannot be
// read) gives way to the Client's own backoff.
const MaxRetryAfter = time.Minute

// retryAfter reads how long a 429 or 5xx answer asks the client to wait:
// retry-after-ms (milliseconds, as OpenAI sends it), else Retry-After in
// seconds or as an HTTP date; 0 when neither says a wait in (0,
// MaxRetryAfter].
func retryAfter(h http.Header, now time.Time) time.Duration {
	var d time.Duration
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 && ms <= float64(MaxRetryAfter/time.Millisecond) {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if s, err := strconv.Atoi(v); err == nil {
		d = time.Duration(min(s, int(MaxRetryAfter/time.Second)+1)) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d <= 0 || d > MaxRetryAfter {
		return 0
	}
	return d
}

// once makes one attempt; retry says whether its failure may pass, after
// how long the server asked to wait (0: it did not say).
func (c Client) once(ctx context.Context, tag core.Tag, body []byte) (core.Response, bool, time.Duration, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(c.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return core.Response{}, false, 0, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	if c.SendTag && tag.Site != "" {
		hreq.Header.Set(TagHeader, tag.String())
	}
	client := c.httpClient()
	hresp, err := client.Do(hreq)
	if err != nil {
		return core.Response{}, false, 0, c.timeout(ctx, client, hreq, err)
	}
	defer hresp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(hresp.Body, MaxResponseBytes+1))
	switch status := hresp.StatusCode; {
	case err != nil:
		if terr := c.timeout(ctx, client, hreq, err); terr != err {
			return core.Response{}, false, 0, terr
		}
		return core.Response{}, false, 0, fmt.Errorf("openai: chat response (%s): %w", proxy.StatusText(status), err)
	case len(raw) > MaxResponseBytes:
		return core.Response{}, false, 0, fmt.Errorf("openai: chat response (%s): over %d bytes", proxy.StatusText(status), MaxResponseBytes)
	case status == http.StatusTooManyRequests:
		return core.Response{}, true, retryAfter(hresp.Header, time.Now()), fmt.Errorf("%s: %w", proxy.StatusText(status), core.ErrRateLimited)
	case status >= 500:
		return core.Response{}, true, retryAfter(hresp.Header, time.Now()), fmt.Errorf("%s: %w", proxy.StatusText(status), core.ErrServer)
	case status >= 300 && status < 400 && hresp.Header.Get("Location") != "":
		return core.Response{}, false, 0, fmt.Errorf("%s: redirected to %s, not followed (BaseURL is %s)",
			proxy.StatusText(status), oneLine([]byte(hresp.Header.Get("Location")), 300), c.BaseURL)
	case status != http.StatusOK:
		return core.Response{}, false, 0, fmt.Errorf("%s: %s", proxy.StatusText(status), oneLine(raw, 300))
	}
	if err := gateway.CheckJSONShape(raw, MaxResponseValues, MaxResponseNesting); err != nil {
		return core.Response{}, false, 0, fmt.Errorf("openai: chat response (%s): %w", proxy.StatusText(hresp.StatusCode), err)
	}
	resp, err := DecodeResponse(raw)
	return resp, false, 0, err
}

// httpClient is a copy of c.HTTP (or of a zero http.Client) that does
// not follow redirects and has a Timeout.
func (c Client) httpClient() *http.Client {
	hc := proxy.NoRedirects(c.HTTP)
	if hc.Timeout <= 0 {
		hc.Timeout = defaultTimeout
	}
	return hc
}

// timeout words an attempt that ran out of the http.Client's Timeout (not
// ctx's) in one stable line wrapping context.DeadlineExceeded; other errors
// pass as they are.
func (c Client) timeout(ctx context.Context, client *http.Client, hreq *http.Request, err error) error {
	var ne net.Error
	if ctx.Err() != nil || !errors.As(err, &ne) || !ne.Timeout() {
		return err
	}
	return fmt.Errorf("openai: POST %s: no answer within %s: %w", hreq.URL.Redacted(), client.Timeout, context.DeadlineExceeded)
}

// oneLine returns up to n bytes of body on one line.
func oneLine(body []byte, n int) string {
	s := strings.Join(strings.Fields(string(body[:min(len(body), n)])), " ")
	if len(body) > n {
		s += "…"
	}
	return s
}

var _ core.LLM = Client{}
