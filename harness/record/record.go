package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness/importer"
)

// Options configure a Recorder.
type Options struct {
	// Upstream is the real model's base URL (https://api.openai.com/v1,
	// https://api.anthropic.com, http://127.0.0.1:PORT/v1): a request's
	// path after its "/v1" is appended to it, after a "/v1" it ends with.
	Upstream string
	// Only records every request, without asking the scenario's steps
	// (toolout serve --record-only).
	Only bool
	// Env gives the API keys: OPENAI_API_KEY for the OpenAI wires,
	// ANTHROPIC_API_KEY for Anthropic's (os.Getenv when nil). A key is
	// sent to the upstream alone, never written.
	Env func(string) string
	// RedactEmails and Redact are toolout import's --redact-emails and
	// --redact: what a recording redacts besides the built-in secrets.
	RedactEmails bool
	Redact       []string
	// Client sends the requests upstream (DefaultClient when nil).
	Client *http.Client
	// MaxAnswerBytes is the most of one answer a recording keeps
	// (DefaultMaxAnswerBytes when 0): a longer answer is relayed whole and
	// not recorded.
	MaxAnswerBytes int64
	// Logf gets a line for each call recorded or not recorded, and why.
	Logf func(format string, args ...any)
}

// DefaultMaxAnswerBytes bounds a recorded answer.
const DefaultMaxAnswerBytes = 64 << 20

// DefaultClient is the client a Recorder sends with when Options.Client is
// nil: it connects within 10 s and waits up to 10 min for the answer's
// headers (a model thinks before it answers); the answer's body is read
// for as long as the client's request lasts (serve's --timeout).
var DefaultClient = &http.Client{
	Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 10 * time.Minute,
		MaxIdleConnsPerHost:   16,
	},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Recorder forwards requests to the upstream and records the exchanges;
// see the package documentation. It is safe for concurrent use.
type Recorder struct {
	o    Options
	base *url.URL
	red  *importer.Redactor

	mu   sync.Mutex
	logs map[string]*callLog // by scenario file
}

// New returns a Recorder; an upstream that is not an http(s) URL, or a
// redaction pattern that is not a regular expression, is an error.
func New(o Options) (*Recorder, error) {
	u, err := url.Parse(o.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q: want an http:// or https:// URL", o.Upstream)
	}
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/v1")
	red, err := importer.NewRedactor(o.RedactEmails, o.Redact)
	if err != nil {
		return nil, err
	}
	if o.Env == nil {
		o.Env = envOf
	}
	if o.Client == nil {
		o.Client = DefaultClient
	}
	if o.MaxAnswerBytes <= 0 {
		o.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	return &Recorder{o: o, base: u, red: red, logs: map[string]*callLog{}}, nil
}

// Only reports whether every request is recorded (Options.Only).
func (r *Recorder) Only() bool { return r.o.Only }

// ErrUpstream is a request the upstream did not answer (no connection, a
// timeout before its headers): nothing was written to the client, which
// serve answers 502.
var ErrUpstream = errors.New("upstream")

// Record forwards a request of wire to the upstream (path is the request's
// path from its "/v1" on, body its bytes, h its headers) and relays the
// answer to w as it arrives; a whole answer of status 200 is recorded for
// the scenario file (see the package documentation). It returns an error
// wrapping ErrUpstream, and writes nothing, when the upstream gave no
// answer; once the answer is relayed it returns nil, and a problem (the
// client gone, the answer cut) only leaves the call out of the recording.
func (r *Recorder) Record(ctx context.Context, w http.ResponseWriter, h http.Header, scenario string, wire llmwire.Wire, path string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.target(path), bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUpstream, err)
	}
	r.headers(req.Header, h, wire)
	start := time.Now()
	resp, err := r.o.Client.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrUpstream, r.shown(), unwrapURL(err))
	}
	defer resp.Body.Close()
	a, err := relay(w, resp, r.o.MaxAnswerBytes, start)
	switch {
	case err != nil:
		r.logf("%s: %s: not recorded: %v", scenario, path, err)
	case resp.StatusCode != http.StatusOK:
		r.logf("%s: %s: not recorded: the upstream answered %d", scenario, path, resp.StatusCode)
	case a.capped:
		r.logf("%s: %s: not recorded: the answer is over %d bytes", scenario, path, r.o.MaxAnswerBytes)
	default:
		r.keep(scenario, wire, body, a)
	}
	return nil
}

// target is the upstream URL of path (from its "/v1").
func (r *Recorder) target(path string) string {
	u := *r.base
	u.Path += path
	u.RawQuery = ""
	return u.String()
}

// shown is the upstream as errors name it: without credentials or query.
func (r *Recorder) shown() string {
	u := *r.base
	u.User, u.RawQuery = nil, ""
	return u.String()
}

// headers sets what the upstream is sent: the client's content and API
// headers, and the key from the environment (never the client's: an
// agent pointed at serve sends a placeholder).
func (r *Recorder) headers(out, in http.Header, wire llmwire.Wire) {
	for k, vs := range in {
		lk := strings.ToLower(k)
		if lk == "content-type" || lk == "accept" || lk == "user-agent" || strings.HasPrefix(lk, "anthropic-") || strings.HasPrefix(lk, "openai-") {
			out[k] = vs
		}
	}
	if wire == llmwire.Anthropic {
		if key := r.o.Env("ANTHROPIC_API_KEY"); key != "" {
			out.Set("x-api-key", key)
		}
		if out.Get("anthropic-version") == "" {
			out.Set("anthropic-version", "2023-06-01")
		}
		return
	}
	if key := r.o.Env("OPENAI_API_KEY"); key != "" {
		out.Set("Authorization", "Bearer "+key)
	}
}

func (r *Recorder) logf(format string, args ...any) {
	if r.o.Logf != nil {
		r.o.Logf(format, args...)
	}
}

// unwrapURL drops the *url.Error's method and URL (the upstream is named
// once, without credentials).
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// answer is an upstream answer as relayed: its bytes (up to the bound),
// whether it was an event stream, and when each chunk arrived.
type answer struct {
	body   []byte
	stream bool
	capped bool
	ttfb   time.Duration
	gaps   []time.Duration // between the reads that brought bytes
}

// hopHeaders are not relayed (RFC 9110 7.6.1), nor the length, which the
// relay's own framing gives.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade", "Te", "Trailer", "Content-Length"}

// relay copies resp to w as it arrives, flushing each read, and keeps the
// bytes up to max.
func relay(w http.ResponseWriter, resp *http.Response, max int64, start time.Time) (answer, error) {
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, k := range hopHeaders {
		w.Header().Del(k)
	}
	w.WriteHeader(resp.StatusCode)
	fl, _ := w.(http.Flusher)
	a := answer{stream: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")}
	var kept bytes.Buffer
	buf := make([]byte, 32<<10)
	last := start
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			now := time.Now()
			if a.ttfb == 0 {
				a.ttfb = now.Sub(start)
			} else {
				a.gaps = append(a.gaps, now.Sub(last))
			}
			last = now
			if _, werr := w.Write(buf[:n]); werr != nil {
				return a, fmt.Errorf("the client went away: %v", werr)
			}
			if fl != nil {
				fl.Flush()
			}
			if !a.capped && int64(kept.Len()+n) > max {
				a.capped = true
				kept = bytes.Buffer{}
			}
			if !a.capped {
				kept.Write(buf[:n])
			}
		}
		if errors.Is(err, io.EOF) {
			a.body = kept.Bytes()
			return a, nil
		}
		if err != nil {
			return a, fmt.Errorf("the answer was cut: %v", err)
		}
	}
}
