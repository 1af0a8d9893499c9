package main

import (
	"cmp"
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
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/core/gateway/wires"
	"github.com/toolout/toolout/harness/record"
)

// FileConfig is the gateway's configuration file: the spec's
// pipes.tool_output fields and providers, plus the store backend, the
// request limits and the server's timeouts. Zero values mean the defaults.
//
// The knobs core/gateway defines (gateway.CompressorConfig, gateway.Config,
// gateway.StoreOptions, proxy.Limits) are embedded inline with their own
// yaml names: this file adds only what is wiring (the store backend, the
// providers, the HTTP server) and the spec's keys that have no behaviour.
type FileConfig struct {
	Providers map[string]ProviderConfig `yaml:"providers"`
	Pipes     struct {
		ToolOutput ToolOutputConfig `yaml:"tool_output"`
	} `yaml:"pipes"`
	Store  StoreConfig  `yaml:"store"`
	Limits LimitsConfig `yaml:"limits"`
	Server ServerConfig `yaml:"server"`
	// Caller scopes the originals to their caller: caller.header names an
	// identity header (default: the API key), caller.salt keys the hash.
	Caller gateway.Identity `yaml:"caller"`
	// Capture writes each conversation to a trace file toolout import
	// reads (harness/record.Capture); off without a dir.
	Capture CaptureConfig `yaml:"capture"`
}

// CaptureConfig is the gateway's capture: the folder of its trace files,
// the share of conversations captured (0: the default, all), the bounds
// of the files together (0: DefaultCaptureBytes, DefaultCaptureFiles),
// and what is redacted besides the built-in secrets.
type CaptureConfig struct {
	Dir          string   `yaml:"dir"`
	Sample       float64  `yaml:"sample"`
	MaxBytes     int64    `yaml:"max_bytes"`
	MaxFiles     int      `yaml:"max_files"`
	RedactEmails bool     `yaml:"redact_emails"`
	Redact       []string `yaml:"redact"`
}

// The capture's defaults.
const (
	DefaultCaptureBytes = 1 << 30
	DefaultCaptureFiles = 1000
)

// captureOptions are the record.CaptureOptions of the config's capture,
// ok false when it is off (no dir).
func (fc FileConfig) captureOptions() (o record.CaptureOptions, ok bool, err error) {
	c := fc.Capture
	switch {
	case c.Dir == "":
		if c.Sample != 0 || c.MaxBytes != 0 || c.MaxFiles != 0 || c.RedactEmails || c.Redact != nil {
			return o, false, errors.New("capture: dir: want the folder of the trace files")
		}
		return o, false, nil
	case c.Sample < 0 || c.Sample > 1:
		return o, false, fmt.Errorf("capture.sample %v: want a share from 0 to 1", c.Sample)
	case c.MaxBytes < 0 || c.MaxFiles < 0:
		return o, false, errors.New("capture.max_bytes and capture.max_files: must not be negative")
	}
	o = record.CaptureOptions{Dir: c.Dir, Sample: c.Sample, MaxBytes: c.MaxBytes, MaxFiles: c.MaxFiles, RedactEmails: c.RedactEmails, Redact: c.Redact,
		Settings: fc.effectiveSettings()}
	if o.Sample == 0 {
		o.Sample = 1
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultCaptureBytes
	}
	if o.MaxFiles == 0 {
		o.MaxFiles = DefaultCaptureFiles
	}
	return o, true, nil
}

// StoreConfig picks the store backend: memory (the default, one process)
// or redis (shared by every replica that uses the same URL and prefix).
type StoreConfig struct {
	Backend string `yaml:"backend"`
	// URL is redis://[:PASSWORD@]HOST:PORT/DB for the redis backend.
	URL    string `yaml:"url"`
	Prefix string `yaml:"prefix"`
	// MaxBytes caps the bytes held (keys and values); max_entries (under
	// pipes.tool_output) caps the entries of each kind.
	MaxBytes int64 `yaml:"max_bytes"`
	// AllowEviction lets the redis backend run on a server whose
	// maxmemory-policy evicts any key (allkeys-*), which it refuses
	// otherwise (redisstore.Options.AllowEviction).
	AllowEviction bool `yaml:"allow_eviction"`
}

// LimitsConfig bounds each request: proxy.Limits, and the pipe's
// per-request compression budget (gateway.Config.MaxResults and
// MaxWorkBytes, which are request limits to an operator).
type LimitsConfig struct {
	proxy.Limits `yaml:",inline"`
	MaxResults   int   `yaml:"max_results"`
	MaxWorkBytes int64 `yaml:"max_work_bytes"`
}

// ServerConfig holds the HTTP server's timeouts: a client slower than
// these to send its headers or body, or idle longer between requests, is
// disconnected.
type ServerConfig struct {
	ReadHeaderTimeout time.Duration `yaml:"read_header_timeout"`
	ReadTimeout       time.Duration `yaml:"read_timeout"`
	IdleTimeout       time.Duration `yaml:"idle_timeout"`
	// MemoryLimit is the process's soft memory limit in bytes: 0 derives
	// it from the memory store, -1 sets none; GOMEMLIMIT wins
	// (gatewaymem.go).
	MemoryLimit int64 `yaml:"memory_limit"`
}

// Server timeout defaults.
const (
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadTimeout       = 60 * time.Second
	defaultIdleTimeout       = 120 * time.Second
)

// gatewayLimits returns the proxy limits of the configuration.
func (fc FileConfig) gatewayLimits() proxy.Limits { return fc.Limits.Limits.WithDefaults() }

// httpServer returns the server of the configuration, its timeouts set.
func (fc FileConfig) httpServer(h http.Handler) *http.Server {
	s := fc.Server
	return &http.Server{Handler: h, ReadHeaderTimeout: cmp.Or(s.ReadHeaderTimeout, defaultReadHeaderTimeout),
		ReadTimeout: cmp.Or(s.ReadTimeout, defaultReadTimeout), IdleTimeout: cmp.Or(s.IdleTimeout, defaultIdleTimeout)}
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

// ToolOutputConfig is pipes.tool_output: core's compressor, pipe and store
// knobs, and the keys that are the file's own.
type ToolOutputConfig struct {
	Enabled          bool `yaml:"enabled"`
	gateway.Settings `yaml:",inline"`
	// Provider names the external_provider strategy's entry under
	// providers (the pipe's own Provider is the route's wire).
	Provider string `yaml:"provider"`
	// TargetRatio and IncludeExpandHint are accepted and not enforced, as
	// in the system the spec describes.
	TargetRatio       float64 `yaml:"target_ratio"`
	IncludeExpandHint bool    `yaml:"include_expand_hint"`
}

// StoreOptions returns the store settings of the configuration.
func (fc FileConfig) StoreOptions(src core.Sources) gateway.StoreOptions {
	o := fc.Pipes.ToolOutput.StoreOptions
	o.MaxBytes, o.Sources = fc.Store.MaxBytes, src
	return o.WithDefaults()
}

// effectiveSettings are the settings the gateway runs with, as Build
// reads them: a disabled pipe passes everything through and expands
// nothing; the request limits are the file's limits section.
func (fc FileConfig) effectiveSettings() *gateway.Settings {
	t := fc.Pipes.ToolOutput
	s := t.Settings
	if !t.Enabled || s.Strategy == "" {
		s.Strategy = gateway.StrategyPassthrough
	}
	s.EnableExpandContext = t.Enabled && t.EnableExpandContext
	s.Config.MaxResults, s.Config.MaxWorkBytes = fc.Limits.MaxResults, fc.Limits.MaxWorkBytes
	return &s
}

// Build makes the gateway a configuration describes, for requests of the
// given provider ("openai" for the proxy), over store. A disabled pipe
// builds a passthrough gateway. httpClient serves the api and external_provider
// strategies (nil: http.DefaultClient).
func (fc FileConfig) Build(provider string, store gateway.Store, src core.Sources, httpClient *http.Client) (*gateway.Gateway, error) {
	t, s := fc.Pipes.ToolOutput, fc.effectiveSettings()
	wire, err := wires.For(provider)
	if err != nil {
		return nil, err
	}
	cc := s.CompressorConfig
	cc.API.Post = proxy.Poster(httpClient)
	if cc.Strategy == gateway.StrategyExternalProvider {
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
	pc := s.Config
	pc.Provider = wire.Name()
	pipe, err := gateway.NewPipe(gateway.Options{Config: pc, Compressor: c, Store: store, Sources: src})
	if err != nil {
		return nil, err
	}
	return &gateway.Gateway{Pipe: pipe, Wire: wire, Expand: s.EnableExpandContext}, nil
}

// minStoreRatio is how many of the largest compressible outputs the store
// must hold at least: a store smaller than that could drop an original
// right after a put, and show a marker that cannot expand.
const minStoreRatio = 16

// openStore opens the configured store backend; a redis backend must
// answer PING within the dial timeout, and evict no key but entries unless
// allowed. logf gets the backend's warnings.
func openStore(ctx context.Context, fc FileConfig, src core.Sources, logf func(string, ...any)) (gateway.Store, error) {
	opts := fc.StoreOptions(src)
	maxOut := int64(fc.Pipes.ToolOutput.Config.MaxBytes)
	if maxOut <= 0 {
		maxOut = gateway.DefaultMaxBytes
	}
	if opts.MaxBytes < minStoreRatio*2*maxOut {
		return nil, fmt.Errorf("store.max_bytes %d: want at least %d (%d outputs of max_bytes %d, original and compressed)",
			opts.MaxBytes, minStoreRatio*2*maxOut, minStoreRatio, maxOut)
	}
	switch fc.Store.Backend {
	case "", "memory":
		if fc.Store.URL != "" || fc.Store.AllowEviction {
			return nil, errors.New("store.url and store.allow_eviction are for backend redis")
		}
		return memstore.NewBounded(opts), nil
	case "redis":
		if fc.Store.URL == "" {
			return nil, errors.New("store.url is required for backend redis (redis://HOST:PORT/DB)")
		}
		st, err := redisstore.New(ctx, redisstore.Options{URL: fc.Store.URL, Prefix: fc.Store.Prefix, Store: opts,
			AllowEviction: fc.Store.AllowEviction, Logf: logf})
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
