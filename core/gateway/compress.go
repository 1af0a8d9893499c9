package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolout/toolout/core"
)

// Input is one tool output to compress.
type Input struct {
	Tool    string
	Content string
	// Query is the user's last question, for query-aware compressors.
	Query string
}

// Compressor shortens one tool output. It must be safe for concurrent use.
type Compressor interface {
	Compress(ctx context.Context, in Input) (string, error)
}

// Locality is implemented by a Compressor that says where its work runs.
// Remote reports whether each call leaves the process (a service, a
// model): only those are rate-limited by default (Config.RateLimit).
type Locality interface {
	Remote() bool
}

// IsRemote reports whether c's calls leave the process: true unless c is
// a [Locality] that says otherwise, so that a compressor which does not
// say keeps the default rate limit.
func IsRemote(c Compressor) bool {
	l, ok := c.(Locality)
	return !ok || l.Remote()
}

// Strategy names (spec: pipes.tool_output.strategy).
const (
	StrategyPassthrough      = "passthrough"
	StrategySimple           = "simple"
	StrategyAPI              = "api"
	StrategyExternalProvider = "external_provider"
)

// Passthrough returns the content unchanged, which is never smaller, so
// nothing is compressed.
type Passthrough struct{}

// Compress returns in.Content.
func (Passthrough) Compress(_ context.Context, in Input) (string, error) { return in.Content, nil }

// Remote is false: Passthrough runs in the process.
func (Passthrough) Remote() bool { return false }

// DefaultSimpleWords is how many words Simple keeps.
const DefaultSimpleWords = 100

// Simple keeps the first Words words, for testing expansion paths (the
// spec: "aggressive truncation-like strategy … intended for testing").
type Simple struct{ Words int }

// Remote is false: Simple runs in the process.
func (Simple) Remote() bool { return false }

// Compress keeps the first Words words, joined by single spaces, and says
// how many were cut.
func (s Simple) Compress(_ context.Context, in Input) (string, error) {
	n := s.Words
	if n <= 0 {
		n = DefaultSimpleWords
	}
	kept, total := firstWords(in.Content, n)
	if total <= n {
		return kept, nil
	}
	return kept + fmt.Sprintf(" [... %d more words]", total-n), nil
}

// API calls a compression service: POST Endpoint with
// {"model","tool_name","content","query"} (query left out when
// QueryAgnostic) and a bearer APIKey; the answer is {"compressed": "..."}.
// The POST itself is Post's: the HTTP layer (proxy.Poster) is wired in by
// the caller, so that this package never speaks HTTP.
type API struct {
	Endpoint      string        `yaml:"endpoint"`
	APIKey        string        `yaml:"api_key"`
	Model         string        `yaml:"model"`
	Timeout       time.Duration `yaml:"timeout"`
	QueryAgnostic bool          `yaml:"query_agnostic"`
	// Post makes the POST; required (NewCompressor says so).
	Post PostFunc `yaml:"-"`
}

// PostFunc posts body as JSON to url with an optional bearer key and
// returns the body of a 200 answer; another status is an error that names
// it and quotes the start of the answer ("503 Service Unavailable: down").
type PostFunc func(ctx context.Context, url, key string, body []byte) ([]byte, error)

// Remote is true: each call is an HTTP request.
func (API) Remote() bool { return true }

// Compress calls the service.
func (a API) Compress(ctx context.Context, in Input) (string, error) {
	if a.Post == nil {
		return "", errors.New("api compressor: no HTTP poster (API.Post)")
	}
	if a.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.Timeout)
		defer cancel()
	}
	body := map[string]string{"model": a.Model, "tool_name": in.Tool, "content": in.Content}
	if !a.QueryAgnostic {
		body["query"] = in.Query
	}
	data, _ := json.Marshal(body)
	raw, err := a.Post(ctx, a.Endpoint, a.APIKey, data)
	if err != nil {
		return "", fmt.Errorf("api compressor: %w", err)
	}
	var out struct {
		Compressed *string `json:"compressed"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || out.Compressed == nil {
		return "", errors.New(`api compressor: the answer has no "compressed" string`)
	}
	return *out.Compressed, nil
}

// CompressSystem is the system prompt of the external_provider strategy.
const CompressSystem = "You compress tool outputs for another model. Keep every fact that could answer the user's " +
	"question: identifiers, names, numbers, errors, dates, paths. Drop repetition and boilerplate. " +
	"Answer with the compressed text only."

// External compresses through a model (core.LLM), tagged gateway.compress.
type External struct {
	LLM             core.LLM
	MaxOutputTokens int
}

// Remote is true: each call asks a model.
func (External) Remote() bool { return true }

// Compress asks the model.
func (e External) Compress(ctx context.Context, in Input) (string, error) {
	user := fmt.Sprintf("TOOL: %s\nUSER QUESTION: %s\n\nTOOL OUTPUT:\n%s", in.Tool, in.Query, in.Content)
	resp, err := e.LLM.Complete(ctx, core.Request{
		Tag:             core.Tag{Site: core.SiteGatewayCompress},
		Messages:        []core.Message{{Role: core.RoleSystem, Content: CompressSystem}, {Role: core.RoleUser, Content: user}},
		MaxOutputTokens: e.MaxOutputTokens,
	})
	if err != nil {
		return "", fmt.Errorf("external compressor: %w", err)
	}
	if strings.TrimSpace(resp.Text) == "" {
		return "", errors.New("external compressor: empty answer")
	}
	return resp.Text, nil
}

// CompressorConfig chooses a pipe's compressor by its strategy name and
// holds what each strategy needs: the one place that maps a name to a
// Compressor, for the serve config, the compress command and scenarios.
//
// Its yaml names are the spec's pipes.tool_output keys (strategy,
// simple_words, api), so the gateway config file and the harness's gateway
// component embed it inline rather than restate it.
type CompressorConfig struct {
	// Strategy is passthrough, simple, api or external_provider; empty means
	// passthrough.
	Strategy string `yaml:"strategy"`
	// SimpleWords is what simple keeps (zero: DefaultSimpleWords).
	SimpleWords int `yaml:"simple_words"`
	// API is the api strategy's service; its Endpoint is required.
	API API `yaml:"api"`
	// LLM is the external_provider strategy's model; required for it. The
	// config file names it by provider; wiring builds it.
	LLM core.LLM `yaml:"-"`
}

// NewCompressor returns the compressor of c.Strategy, or an error naming
// what is missing: an unknown strategy, api without an endpoint,
// external_provider without a model.
func NewCompressor(c CompressorConfig) (Compressor, error) {
	switch c.Strategy {
	case "", StrategyPassthrough:
		return Passthrough{}, nil
	case StrategySimple:
		return Simple{Words: c.SimpleWords}, nil
	case StrategyAPI:
		if c.API.Endpoint == "" {
			return nil, errors.New("strategy api: api.endpoint is required")
		}
		if c.API.Post == nil {
			return nil, errors.New("strategy api: no HTTP poster wired (API.Post: proxy.Poster)")
		}
		return c.API, nil
	case StrategyExternalProvider:
		if c.LLM == nil {
			return nil, errors.New("strategy external_provider: a provider model is required")
		}
		return External{LLM: c.LLM}, nil
	}
	return nil, fmt.Errorf("strategy %q: want passthrough, simple, api or external_provider", c.Strategy)
}
