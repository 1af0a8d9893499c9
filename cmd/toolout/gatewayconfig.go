package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/core/gateway/wires"
)

// Duration is a time.Duration written as "30s" or "5m" in configuration.
type Duration time.Duration

// UnmarshalText parses a Go duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: want e.g. 30s or 5m", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText renders the duration.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// FileConfig is the gateway's configuration file: the spec's
// pipes.tool_output fields and providers, plus the store backend, the
// request limits and the server's timeouts. Zero values mean the defaults.
type FileConfig struct {
	Providers map[string]ProviderConfig `yaml:"providers"`
	Pipes     struct {
		ToolOutput ToolOutputConfig `yaml:"tool_output"`
	} `yaml:"pipes"`
	Store  StoreConfig  `yaml:"store"`
	Limits LimitsConfig `yaml:"limits"`
	Server ServerConfig `yaml:"server"`
}

// StoreConfig picks the store backend: memory (the default, one process)
// or redis (shared by every replica that uses the same URL and prefix).
type StoreConfig struct {
	Backend string `yaml:"backend"`
	// URL is redis://[:PASSWORD@]HOST:PORT/DB for the redis backend.
	URL    string `yaml:"url"`
	Prefix string `yaml:"prefix"`
	// MaxBytes caps the bytes held (keys and values); MaxEntries (under
	// pipes.tool_output) caps the entries of each kind.
	MaxBytes int64 `yaml:"max_bytes"`
}

// LimitsConfig bounds each request (gateway.Limits, and the pipe's
// per-request compression budget).
type LimitsConfig struct {
	MaxBodyBytes          int64    `yaml:"max_body_bytes"`
	MaxJSONValues         int      `yaml:"max_json_values"`
	MaxJSONNesting        int      `yaml:"max_json_nesting"`
	MaxConcurrentRequests int      `yaml:"max_concurrent_requests"`
	UpstreamTimeout       Duration `yaml:"upstream_timeout"`
	MaxResponseBytes      int64    `yaml:"max_response_bytes"`
	MaxResults            int      `yaml:"max_results"`
	MaxWorkBytes          int64    `yaml:"max_work_bytes"`
}

// ServerConfig holds the HTTP server's timeouts: a client slower than
// these to send its headers or body, or idle longer between requests, is
// disconnected.
type ServerConfig struct {
	ReadHeaderTimeout Duration `yaml:"read_header_timeout"`
	ReadTimeout       Duration `yaml:"read_timeout"`
	IdleTimeout       Duration `yaml:"idle_timeout"`
}

// Server timeout defaults.
const (
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadTimeout       = 60 * time.Second
	defaultIdleTimeout       = 120 * time.Second
)

// gatewayLimits returns the proxy limits of the configuration.
func (fc FileConfig) gatewayLimits() gateway.Limits {
	l := fc.Limits
	return gateway.Limits{MaxBodyBytes: l.MaxBodyBytes, MaxJSONValues: l.MaxJSONValues, MaxJSONNesting: l.MaxJSONNesting,
		MaxConcurrent: l.MaxConcurrentRequests, UpstreamTimeout: time.Duration(l.UpstreamTimeout), MaxResponseBytes: l.MaxResponseBytes}.WithDefaults()
}

// httpServer returns the server of the configuration, its timeouts set.
func (fc FileConfig) httpServer(h http.Handler) *http.Server {
	d := func(v Duration, def time.Duration) time.Duration {
		if v <= 0 {
			return def
		}
		return time.Duration(v)
	}
	s := fc.Server
	return &http.Server{Handler: h, ReadHeaderTimeout: d(s.ReadHeaderTimeout, defaultReadHeaderTimeout),
		ReadTimeout: d(s.ReadTimeout, defaultReadTimeout), IdleTimeout: d(s.IdleTimeout, defaultIdleTimeout)}
}

// ProviderConfig is an OpenAI-compatible endpoint for external_provider.
type ProviderConfig struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1.
	BaseURL string `yaml:"base_url"`
	APIKey  string `yaml:"api_key"`
	Model   string `yaml:"model"`
	// Auth is accepted for compatibility; "oauth" means the key may be empty.
	Auth string `yaml:"auth"`
}

// ToolOutputConfig is pipes.tool_output.
type ToolOutputConfig struct {
	Enabled          bool   `yaml:"enabled"`
	Strategy         string `yaml:"strategy"`
	FallbackStrategy string `yaml:"fallback_strategy"`
	Provider         string `yaml:"provider"`
	API              struct {
		Endpoint      string   `yaml:"endpoint"`
		APIKey        string   `yaml:"api_key"`
		Model         string   `yaml:"model"`
		Timeout       Duration `yaml:"timeout"`
		QueryAgnostic bool     `yaml:"query_agnostic"`
	} `yaml:"api"`
	MinBytes int `yaml:"min_bytes"`
	MaxBytes int `yaml:"max_bytes"`
	// TargetRatio and IncludeExpandHint are accepted and not enforced, as
	// in the system the spec describes.
	TargetRatio         float64  `yaml:"target_ratio"`
	EnableExpandContext bool     `yaml:"enable_expand_context"`
	IncludeExpandHint   bool     `yaml:"include_expand_hint"`
	SkipTools           []string `yaml:"skip_tools"`
	// SimpleWords is the simple strategy's word count.
	SimpleWords   int      `yaml:"simple_words"`
	MaxConcurrent int      `yaml:"max_concurrent"`
	RateLimit     float64  `yaml:"rate_limit"`
	OriginalTTL   Duration `yaml:"original_ttl"`
	CompressedTTL Duration `yaml:"compressed_ttl"`
	MaxEntries    int      `yaml:"max_entries"`
	// BreakerFailures compressor failures in a row stop compression for
	// BreakerCooloff (then one call probes).
	BreakerFailures int      `yaml:"breaker_failures"`
	BreakerCooloff  Duration `yaml:"breaker_cooloff"`
	// CompressTimeout bounds one compressor call.
	CompressTimeout Duration `yaml:"compress_timeout"`
}

// StoreOptions returns the store settings of the configuration.
func (fc FileConfig) StoreOptions(src core.Sources) gateway.StoreOptions {
	t := fc.Pipes.ToolOutput
	return gateway.StoreOptions{OriginalTTL: time.Duration(t.OriginalTTL), CompressedTTL: time.Duration(t.CompressedTTL),
		MaxEntries: t.MaxEntries, MaxBytes: fc.Store.MaxBytes, Sources: src}.WithDefaults()
}

// Build makes the gateway a configuration describes, for requests of the
// given provider ("openai" for the proxy), over store. A disabled pipe
// builds a passthrough gateway. httpClient serves the api and external_provider
// strategies (nil: http.DefaultClient).
func (fc FileConfig) Build(provider string, store gateway.Store, src core.Sources, httpClient *http.Client) (*gateway.Gateway, error) {
	t := fc.Pipes.ToolOutput
	wire, err := wires.For(provider)
	if err != nil {
		return nil, err
	}
	strategy := t.Strategy
	if !t.Enabled || strategy == "" {
		strategy = gateway.StrategyPassthrough
	}
	cc := gateway.CompressorConfig{Strategy: strategy, SimpleWords: t.SimpleWords,
		API: gateway.API{Endpoint: t.API.Endpoint, APIKey: t.API.APIKey, Model: t.API.Model, Timeout: time.Duration(t.API.Timeout),
			QueryAgnostic: t.API.QueryAgnostic, Client: httpClient}}
	if strategy == gateway.StrategyExternalProvider {
		p, ok := fc.Providers[t.Provider]
		if !ok {
			return nil, fmt.Errorf("gateway: config: pipes.tool_output.provider %q: not under providers", t.Provider)
		}
		if p.BaseURL == "" || p.Model == "" {
			return nil, fmt.Errorf("gateway: config: providers.%s: base_url and model are required", t.Provider)
		}
		cc.LLM = openai.Client{BaseURL: p.BaseURL, APIKey: p.APIKey, Model: p.Model, HTTP: httpClient}
	}
	c, err := gateway.NewCompressor(cc)
	if err != nil {
		return nil, fmt.Errorf("gateway: config: pipes.tool_output: %w", err)
	}
	pipe, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{Strategy: strategy, FallbackStrategy: t.FallbackStrategy, MinBytes: t.MinBytes,
		MaxBytes: t.MaxBytes, SkipTools: t.SkipTools, Provider: wire.Name(), MaxConcurrent: t.MaxConcurrent, RateLimit: t.RateLimit,
		MaxResults: fc.Limits.MaxResults, MaxWorkBytes: fc.Limits.MaxWorkBytes,
		BreakerFailures: t.BreakerFailures, BreakerCooloff: time.Duration(t.BreakerCooloff),
		CompressTimeout: time.Duration(t.CompressTimeout)},
		Compressor: c, Store: store, Sources: src})
	if err != nil {
		return nil, err
	}
	return &gateway.Gateway{Pipe: pipe, Wire: wire, Expand: t.Enabled && t.EnableExpandContext}, nil
}

// minStoreRatio is how many of the largest compressible outputs the store
// must hold at least: a store smaller than that could drop an original
// right after a put, and show a marker that cannot expand.
const minStoreRatio = 16

// openStore opens the configured store backend; a redis backend must
// answer PING within the dial timeout.
func openStore(ctx context.Context, fc FileConfig, src core.Sources) (gateway.Store, error) {
	opts := fc.StoreOptions(src)
	maxOut := int64(fc.Pipes.ToolOutput.MaxBytes)
	if maxOut <= 0 {
		maxOut = gateway.DefaultMaxBytes
	}
	if opts.MaxBytes < minStoreRatio*2*maxOut {
		return nil, fmt.Errorf("store.max_bytes %d: want at least %d (%d outputs of max_bytes %d, original and compressed)",
			opts.MaxBytes, minStoreRatio*2*maxOut, minStoreRatio, maxOut)
	}
	switch fc.Store.Backend {
	case "", "memory":
		if fc.Store.URL != "" {
			return nil, errors.New("store.url is for backend redis")
		}
		return memstore.New(opts), nil
	case "redis":
		if fc.Store.URL == "" {
			return nil, errors.New("store.url is required for backend redis (redis://HOST:PORT/DB)")
		}
		st, err := redisstore.New(ctx, redisstore.Options{URL: fc.Store.URL, Prefix: fc.Store.Prefix, Store: opts})
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		return st, nil
	}
	return nil, fmt.Errorf("store.backend %q: want memory or redis", fc.Store.Backend)
}

// storeName names the store for the startup line.
func storeName(fc FileConfig) string {
	if fc.Store.Backend == "redis" {
		return "redis " + redactURL(fc.Store.URL)
	}
	return "memory"
}

// redactURL drops the password of a URL.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	return u.Redacted()
}
