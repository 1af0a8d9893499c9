package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/core/gateway/wires"
	"github.com/toolout/toolout/harness/record"
	"github.com/toolout/toolout/harness/serve"
)

// gatewayGroup is `toolout gateway serve|compress|shadow-id`.
func gatewayGroup() group {
	return group{name: "gateway", subs: []command{
		{name: "serve", summary: "run the compression proxy until interrupted", run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
			return runGatewayServe(ctx, args, stdout, stderr)
		}, grace: gatewayDrain + time.Second},
		gatewayCompressLeaf().sub(), gatewayShadowIDLeaf().sub(),
	}}
}

// runGatewayServe runs the proxy until interrupted, then shuts down
// gracefully.
func runGatewayServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("gateway serve", "--listen 127.0.0.1:PORT [--allow-remote] --upstream URL --config FILE [--caller-header NAME]", stderr)
	listen := fs.String("listen", "127.0.0.1:8787", "address to listen on; loopback only unless --allow-remote")
	remote := fs.Bool("allow-remote", false, "allow a --listen address that is not loopback")
	upstream := fs.String("upstream", "", "OpenAI-compatible server to forward to, e.g. https://api.openai.com (required)")
	anthropicUp := fs.String("anthropic-upstream", "", "Anthropic-compatible server for POST /v1/messages, e.g. https://api.anthropic.com (default: --upstream)")
	config := fs.String("config", "", "YAML config with pipes.tool_output, store, limits, server, caller (required)")
	callerHeader := fs.String("caller-header", "", "request header that names the caller whose originals a request may expand, e.g. X-User-Id "+
		"(default: caller.header, else the API key)")
	if _, err := parseFlags(fs, args); err != nil {
		return usageError(fs, stderr, err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "toolout gateway serve: "+format+"\n", a...)
		return exitUsage
	}
	if *upstream == "" || *config == "" {
		return fail("--upstream and --config are required")
	}
	if err := checkListen(*listen, *remote); err != nil {
		return fail("--listen: %v", err)
	}
	if err := (gateway.Identity{Header: *callerHeader}).Validate(); err != nil {
		return fail("--caller-header: %v", err)
	}
	u, au, err := gatewayUpstreams(stderr, *upstream, *anthropicUp)
	if err != nil {
		return fail("%v", err)
	}
	fc, err := loadGatewayConfig(*config)
	if err != nil {
		return fail("--config: %v", err)
	}
	if *callerHeader != "" {
		fc.Caller.Header = *callerHeader
	} else if err := fc.Caller.Validate(); err != nil {
		return fail("--config: caller.%v", err)
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }
	limit, why, err := fc.memoryLimit(os.Getenv)
	if err != nil {
		return fail("--config: %v", err)
	}
	store, err := openStore(ctx, fc, core.Sources{}, logf)
	if err != nil {
		return fail("--config: %v", err)
	}
	defer store.Close()
	defer setMemoryLimit(limit, why, logf)()
	g, err := fc.Build("openai", store, core.Sources{}, nil)
	if err != nil {
		return fail("%v", err)
	}
	g.Logf = logf
	px, err := newGatewayProxy(fc, g, store, u, au, logf)
	if err != nil {
		return fail("metrics: %v", err)
	}
	capture, err := startCapture(fc, px, logf)
	if err != nil {
		return fail("--config: %v", err)
	}
	if capture != nil {
		defer capture.Close() // after the requests in flight: what they captured is written
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail("--listen: %v", err)
	}
	srv := fc.httpServer(px)
	if fc.Caller.Header != "" {
		fmt.Fprintf(stderr, "toolout gateway serve: originals scoped to the caller named by header %s (else by the API key)\n", fc.Caller.Header)
	}
	// Signals are caught before the line that says it listens: a process
	// that stops it on that line gets the orderly shutdown.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "toolout gateway: listening on http://%s, forwarding %s and %s to %s and %s to %s (strategy %s, expand_context %v, store %s)\n",
		ln.Addr(), openai.Path, responses.Path, u.Redacted(), anthropic.Path, au.Redacted(), fc.Pipes.ToolOutput.Strategy, g.Expand, storeName(fc))
	return serveUntilStopped(ctx, srv, ln, g, stdout, stderr)
}

// newGatewayProxy is the proxy of gateway serve: g for the OpenAI wire at
// u, the Anthropic wire at au and the Responses wire at u (the OpenAI
// upstream serves it too: wires.Routes), one transport for every upstream
// whose idle pool is sized from max_concurrent_requests
// (proxy.Transport), and the Prometheus metrics of the pipe and store.
func newGatewayProxy(fc FileConfig, g *gateway.Gateway, store gateway.Store, u, au *url.URL, logf func(string, ...any)) (*proxy.Proxy, error) {
	metrics, err := prom.New(prometheus.NewRegistry(), g.Pipe.Metrics, store)
	if err != nil {
		return nil, err
	}
	px := proxy.New(g, u, &http.Client{Transport: proxy.Transport(fc.gatewayLimits())})
	px.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: anthropic.Wire{}, Expand: g.Expand, Logf: logf}, au)
	px.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: responses.Wire{}, Expand: g.Expand, Logf: logf}, u)
	px.Logf, px.Limits, px.Observer, px.Metrics = logf, fc.gatewayLimits(), metrics, metrics.Handler()
	px.Identity = fc.Caller
	return px, nil
}

// startCapture starts the config's capture, when on, as px's Capturer,
// its outcomes counted in px's metrics.
func startCapture(fc FileConfig, px *proxy.Proxy, logf func(string, ...any)) (*record.Capture, error) {
	o, on, err := fc.captureOptions()
	if err != nil || !on {
		return nil, err
	}
	o.Logf = logf
	if m, ok := px.Observer.(*prom.Metrics); ok {
		o.Count = m.Captured
	}
	c, err := record.NewCapture(o)
	if err != nil {
		return nil, err
	}
	px.Capture = c
	logf("toolout gateway serve: capturing conversations to %s (sample %v, at most %d files, %d bytes)", o.Dir, o.Sample, o.MaxFiles, o.MaxBytes)
	return c, nil
}

// gatewayDrain bounds how long gateway serve waits for the requests in
// flight once it is told to stop.
const gatewayDrain = 10 * time.Second

// serveUntilStopped serves on ln until the server fails (exit 1) or ctx
// ends (SIGINT or SIGTERM: the caller's), then shuts down, waiting at most
// gatewayDrain for the requests in flight, and prints the pipe's counts.
func serveUntilStopped(ctx context.Context, srv *http.Server, ln net.Listener, g *gateway.Gateway, stdout, stderr io.Writer) int {
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "toolout gateway serve: %v\n", err)
		return exitFailed
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), gatewayDrain)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		fmt.Fprintf(stderr, "toolout gateway serve: shutdown: %v\n", err)
		return exitFailed
	}
	m := g.Pipe.Metrics()
	fmt.Fprintf(stdout, "toolout gateway: stopped; cache hits %d, misses %d, compressions ok %d, failed %d, bytes saved %d\n",
		m.CacheHits, m.CacheMisses, m.CompressionsOK, m.CompressionsFailed, m.BytesSaved)
	return exitOK
}

// checkListen refuses a --listen address that is not loopback (an IP
// outside 127.0.0.0/8 and ::1, an empty host, any name but localhost)
// unless remote (--allow-remote) is set, as toolout serve refuses its
// --addr: the gateway has no authentication of its own.
func checkListen(addr string, remote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if !remote && !serve.Loopback(host) {
		return fmt.Errorf("address %q is not loopback (127.0.0.1, ::1, localhost); the gateway forwards anyone who reaches it "+
			"to the upstream and expands its stored originals for them, so serving beyond this machine needs --allow-remote", addr)
	}
	return nil
}

// gatewayUpstreams reads --upstream (the OpenAI upstream, which serves the
// chat completions and Responses routes) and --anthropic-upstream (default:
// --upstream), each normalized to a base URL.
func gatewayUpstreams(stderr io.Writer, upstream, anthropicUp string) (u, au *url.URL, err error) {
	if u, err = parseUpstream(upstream); err != nil {
		return nil, nil, fmt.Errorf("--upstream %q: %w", upstream, err)
	}
	au = proxy.NormalizeUpstream(u, anthropic.Path)
	if anthropicUp != "" {
		if au, err = parseUpstream(anthropicUp); err != nil {
			return nil, nil, fmt.Errorf("--anthropic-upstream %q: %w", anthropicUp, err)
		}
		au = normalizeUpstream(stderr, "--anthropic-upstream", au, anthropic.Path)
	}
	return normalizeUpstream(stderr, "--upstream", u, openai.Path), au, nil
}

// parseUpstream checks an upstream base URL.
func parseUpstream(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("want an http(s) URL")
	}
	return u, nil
}

// normalizeUpstream returns u as the proxy forwards to it
// (proxy.NormalizeUpstream: no trailing "/" or "/v1", since the request
// paths start with /v1/), and says so in one line on stderr when that
// changed the URL of the flag.
func normalizeUpstream(stderr io.Writer, flag string, u *url.URL, wirePath string) *url.URL {
	n := proxy.NormalizeUpstream(u, wirePath)
	if n.String() != u.String() {
		to := *n
		to.Path += wirePath // as the proxy joins them
		fmt.Fprintf(stderr, "toolout gateway serve: %s %s normalized to %s: POST %s goes to %s\n",
			flag, u.Redacted(), n.Redacted(), wirePath, to.Redacted())
	}
	return n
}

// gatewayCompressLeaf runs the pipe on one output and prints what the model
// would see.
func gatewayCompressLeaf() leaf {
	return leaf{name: "gateway compress", summary: "run the pipe on one output and print what the model would see",
		synopsis: "--strategy simple|passthrough|api [FILE] [--min-bytes N --max-bytes N --tool NAME " +
			"--provider openai|anthropic --skip-tools a,b --words N --endpoint URL --timeout 30s --max-input BYTES]", input: true,
		setup: gatewayCompressFlags}
}

// gatewayCompressFlags binds gateway compress's flags.
func gatewayCompressFlags(fs *flag.FlagSet) leafFunc {
	strategy := fs.String("strategy", gateway.StrategySimple, "simple, passthrough or api")
	minBytes := fs.Int("min-bytes", gateway.DefaultMinBytes, "compress only outputs longer than this")
	maxBytes := fs.Int("max-bytes", gateway.DefaultMaxBytes, "and not longer than this")
	tool := fs.String("tool", "", "the tool that produced the output (for skip-tools)")
	provider := fs.String("provider", "openai", "openai or anthropic: the tool names of skip-tools categories")
	skip := fs.String("skip-tools", "", "comma-separated categories (read,edit,write,bash,glob,grep) or tool names")
	words := fs.Int("words", gateway.DefaultSimpleWords, "words kept by the simple strategy")
	endpoint := fs.String("endpoint", "", "compression service URL for the api strategy")
	timeout := fs.Duration("timeout", 30*time.Second, "api strategy timeout")
	return func(ctx context.Context, c *call) (any, error) {
		if *strategy == gateway.StrategyExternalProvider {
			return nil, errors.New("--strategy external_provider runs from a serve config (a provider model); here: simple, passthrough or api")
		}
		comp, err := gateway.NewCompressor(gateway.CompressorConfig{Strategy: *strategy, SimpleWords: *words,
			API: gateway.API{Endpoint: *endpoint, Timeout: *timeout, Post: proxy.Poster(nil)}})
		if err != nil && *strategy == gateway.StrategyAPI {
			return nil, fmt.Errorf("--%w (--endpoint URL)", err)
		} else if err != nil {
			return nil, fmt.Errorf("--%w", err)
		}
		if _, err := wires.For(*provider); err != nil {
			return nil, fmt.Errorf("--provider %q: want openai or anthropic", *provider)
		}
		var skipTools []string
		for _, s := range strings.Split(*skip, ",") {
			if s = strings.TrimSpace(s); s != "" {
				skipTools = append(skipTools, s)
			}
		}
		name, text, err := c.text()
		if err != nil {
			return nil, err
		}
		p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{MinBytes: *minBytes, MaxBytes: *maxBytes, SkipTools: skipTools,
			Provider: *provider, FallbackStrategy: "none"}, Compressor: comp, Store: memstore.New(gateway.StoreOptions{})})
		if err != nil {
			return nil, err
		}
		res, err := p.Process(ctx, []gateway.ToolOutput{{Tool: *tool, Content: text}}, "")
		if err != nil {
			return nil, failure{fmt.Errorf("%s: %w", name, err)}
		}
		r := res[0]
		return struct {
			Action   string `json:"action"`
			Reason   string `json:"reason"`
			ShadowID string `json:"shadow_id"`
			Text     string `json:"text"`
		}{r.Action, r.Reason, r.ShadowID, r.Text}, nil
	}
}

// gatewayShadowIDLeaf prints the shadow id of FILE or stdin: the one
// gateway.ShadowID gives for the whole text, hashed as it is read, without
// keeping it.
func gatewayShadowIDLeaf() leaf {
	return leaf{name: "gateway shadow-id", summary: "print the shadow id of an output, hashed as it is read",
		synopsis: "[FILE] [--max-input BYTES]", input: true,
		setup: func(*flag.FlagSet) leafFunc {
			return func(_ context.Context, c *call) (any, error) {
				in, err := c.open()
				if err != nil {
					return nil, err
				}
				defer in.Close()
				h := sha256.New()
				if _, err := io.CopyBuffer(h, in, make([]byte, 64<<10)); err != nil {
					return nil, err
				}
				// gateway.ShadowID: "shadow_" and the first 16 bytes of the SHA-256, in hex.
				return map[string]string{"shadow_id": "shadow_" + hex.EncodeToString(h.Sum(nil)[:16])}, nil
			}
		}}
}
