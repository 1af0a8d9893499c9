package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/toolout/toolout/core"
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
// pipes.tool_output fields and providers, plus the store and limits.
type FileConfig struct {
	Providers map[string]ProviderConfig `yaml:"providers"`
	Pipes     struct {
		ToolOutput ToolOutputConfig `yaml:"tool_output"`
	} `yaml:"pipes"`
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
}

// StoreOptions returns the store settings of the configuration.
func (fc FileConfig) StoreOptions(src core.Sources) StoreOptions {
	t := fc.Pipes.ToolOutput
	return StoreOptions{OriginalTTL: time.Duration(t.OriginalTTL), CompressedTTL: time.Duration(t.CompressedTTL),
		MaxEntries: t.MaxEntries, Sources: src}.WithDefaults()
}

// Build makes the gateway a configuration describes, for requests of the
// given provider ("openai" for the proxy), over store. A disabled pipe
// builds a passthrough gateway. httpClient serves the api and external_provider
// strategies (nil: http.DefaultClient).
func (fc FileConfig) Build(provider string, store Store, src core.Sources, httpClient *http.Client) (*Gateway, error) {
	t := fc.Pipes.ToolOutput
	adapter, err := AdapterFor(provider)
	if err != nil {
		return nil, err
	}
	strategy := t.Strategy
	if !t.Enabled || strategy == "" {
		strategy = StrategyPassthrough
	}
	var c Compressor
	switch strategy {
	case StrategyPassthrough:
		c = Passthrough{}
	case StrategySimple:
		c = Simple{Words: t.SimpleWords}
	case StrategyAPI:
		if t.API.Endpoint == "" {
			return nil, errors.New("gateway: config: pipes.tool_output.api.endpoint is required for strategy api")
		}
		c = API{Endpoint: t.API.Endpoint, APIKey: t.API.APIKey, Model: t.API.Model, Timeout: time.Duration(t.API.Timeout),
			QueryAgnostic: t.API.QueryAgnostic, Client: httpClient}
	case StrategyExternalProvider:
		p, ok := fc.Providers[t.Provider]
		if !ok {
			return nil, fmt.Errorf("gateway: config: pipes.tool_output.provider %q: not under providers", t.Provider)
		}
		if p.BaseURL == "" || p.Model == "" {
			return nil, fmt.Errorf("gateway: config: providers.%s: base_url and model are required", t.Provider)
		}
		c = External{LLM: OpenAIClient{BaseURL: p.BaseURL, APIKey: p.APIKey, Model: p.Model, HTTP: httpClient}}
	default:
		return nil, fmt.Errorf("gateway: config: pipes.tool_output.strategy %q: want passthrough, simple, api or external_provider", t.Strategy)
	}
	pipe, err := NewPipe(Options{Config: Config{Strategy: strategy, FallbackStrategy: t.FallbackStrategy, MinBytes: t.MinBytes,
		MaxBytes: t.MaxBytes, SkipTools: t.SkipTools, Provider: adapter.Name(), MaxConcurrent: t.MaxConcurrent, RateLimit: t.RateLimit},
		Compressor: c, Store: store, Sources: src})
	if err != nil {
		return nil, err
	}
	return &Gateway{Pipe: pipe, Adapter: adapter, Expand: t.Enabled && t.EnableExpandContext}, nil
}
