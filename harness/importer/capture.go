package importer

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// CaptureGateway is the "gateway" member of a line of a gateway capture
// (the gateway config's capture:, harness/record's Capture writes it):
// what the gateway did with the request whose call the line's "request"
// and "response" hold. The line is a call of a log import reads as any
// other; this member adds what a gateway scenario replays.
type CaptureGateway struct {
	// Forwarded is the body the gateway sent upstream first (its tool
	// outputs compressed).
	Forwarded json.RawMessage `json:"forwarded"`
	// At is when the gateway answered the request: the scenario advances
	// its clock by the time between two requests (the stores' TTLs).
	At time.Time `json:"at,omitzero"`
	// Config is the gateway's settings that decide what it compresses.
	Config *CaptureConfig `json:"config,omitempty"`
	// Results are what the gateway did with each tool output.
	Results []proxy.CapturedResult `json:"results,omitempty"`
	// Rounds and Expansions are the expand_context loop's; Capped is
	// set when it stopped at its cap.
	Rounds     int                 `json:"rounds,omitempty"`
	Expansions []gateway.Expansion `json:"expansions,omitempty"`
	Capped     bool                `json:"capped,omitempty"`
}

// CaptureConfig is the part of a gateway's settings that decides what it
// does with a request, under the names of the gateway scenario's config
// (and of the config file's pipes.tool_output), which an imported gateway
// scenario writes as they are: no endpoint, key or provider entry.
type CaptureConfig struct {
	Strategy            string   `json:"strategy" yaml:"strategy"`
	SimpleWords         int      `json:"simple_words,omitempty" yaml:"simple_words,omitempty"`
	MinBytes            int      `json:"min_bytes,omitempty" yaml:"min_bytes,omitempty"`
	MaxBytes            int      `json:"max_bytes,omitempty" yaml:"max_bytes,omitempty"`
	SkipTools           []string `json:"skip_tools,omitempty" yaml:"skip_tools,omitempty"`
	FallbackStrategy    string   `json:"fallback_strategy,omitempty" yaml:"fallback_strategy,omitempty"`
	EnableExpandContext bool     `json:"enable_expand_context" yaml:"enable_expand_context"`
	OriginalTTL         string   `json:"original_ttl,omitempty" yaml:"original_ttl,omitempty"`
	CompressedTTL       string   `json:"compressed_ttl,omitempty" yaml:"compressed_ttl,omitempty"`
	MaxEntries          int      `json:"max_entries,omitempty" yaml:"max_entries,omitempty"`
	MaxResults          int      `json:"max_results,omitempty" yaml:"max_results,omitempty"`
	MaxWorkBytes        int64    `json:"max_work_bytes,omitempty" yaml:"max_work_bytes,omitempty"`
}

// CaptureConfigOf is the CaptureConfig of a gateway's settings (with its
// limits in s.Config.MaxResults and MaxWorkBytes).
func CaptureConfigOf(s gateway.Settings) *CaptureConfig {
	c := &CaptureConfig{Strategy: s.Strategy, SimpleWords: s.SimpleWords, MinBytes: s.MinBytes, MaxBytes: s.Config.MaxBytes,
		SkipTools: s.SkipTools, FallbackStrategy: s.FallbackStrategy, EnableExpandContext: s.EnableExpandContext,
		MaxEntries: s.MaxEntries, MaxResults: s.MaxResults, MaxWorkBytes: s.MaxWorkBytes}
	if s.OriginalTTL > 0 {
		c.OriginalTTL = s.OriginalTTL.String()
	}
	if s.CompressedTTL > 0 {
		c.CompressedTTL = s.CompressedTTL.String()
	}
	if c.Strategy == "" {
		c.Strategy = gateway.StrategyPassthrough
	}
	return c
}

// capturedCall is one line of a gateway capture.
type capturedCall struct {
	at        int // the line's offset in the capture
	request   []byte
	response  []byte // a JSON body, or an event stream's text when stream
	stream    bool
	forwarded []byte
	gw        CaptureGateway
}

// captureLine is a capture line as encoded; its gateway member is decoded
// once the line is known to be one of a capture.
type captureLine struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
	Gateway  json.RawMessage `json:"gateway"`
}

// readCapture returns the calls of a gateway capture; ok is false when
// data is not one: a line that is not a JSON object with a "gateway"
// object (a log pretty-printed or a list of calls is not), or no line. A
// gateway member that does not decode is an error at its line.
func readCapture(data []byte, errorf func(off int, format string, args ...any) error) (calls []capturedCall, ok bool, err error) {
	for _, l := range jsonLines(data) {
		var cl captureLine
		if json.Unmarshal(data[l.start:l.end], &cl) != nil || len(cl.Gateway) == 0 || cl.Gateway[0] != '{' {
			return nil, false, nil
		}
		c := capturedCall{at: l.start, request: cl.Request, response: cl.Response}
		if err := json.Unmarshal(cl.Gateway, &c.gw); err != nil {
			return nil, false, errorf(l.start, "a gateway capture's line: gateway: %v", err)
		}
		c.forwarded = c.gw.Forwarded
		if len(cl.Response) > 0 && cl.Response[0] == '"' {
			var text string
			if err := json.Unmarshal(cl.Response, &text); err != nil {
				return nil, false, errorf(l.start, "response: %v", err)
			}
			c.response, c.stream = []byte(text), true
		}
		if len(bytes.TrimSpace(c.request)) == 0 || len(bytes.TrimSpace(c.forwarded)) == 0 {
			return nil, false, errorf(l.start, "a gateway capture's line: want a request and gateway.forwarded")
		}
		calls = append(calls, c)
	}
	return calls, len(calls) > 0, nil
}

// captured adds the gateway scenario when the trace is a gateway capture:
// a call log of one file (a format told by parseFormat).
func (im *importer) captured() error {
	provider, known := map[string]string{FormatResponsesLog: "responses", FormatAnthropicMessages: "anthropic",
		FormatChatCompletionsLog: "openai"}[im.tr.format]
	if !known {
		return nil
	}
	calls, ok, err := readCapture(im.trace, im.tr.errorf)
	if err != nil || !ok || calls[0].gw.Config == nil {
		return err // a capture that does not say how the gateway was set up makes no gateway scenario
	}
	return im.gatewayScenario(calls, provider)
}

// check reports the first setting of c a gateway scenario cannot run
// with (a capture written by hand, or damaged).
func (c *CaptureConfig) check() error {
	switch c.Strategy {
	case gateway.StrategyPassthrough, gateway.StrategySimple, gateway.StrategyAPI, gateway.StrategyExternalProvider:
	default:
		return fmt.Errorf("strategy %q: want passthrough, simple, api or external_provider", c.Strategy)
	}
	if c.SimpleWords < 0 || c.MaxEntries < 0 || c.MaxResults < 0 || c.MaxWorkBytes < 0 {
		return errors.New("simple_words, max_entries, max_results, max_work_bytes: must not be negative")
	}
	for _, ttl := range []string{c.OriginalTTL, c.CompressedTTL} {
		if d, err := time.ParseDuration(cmp.Or(ttl, "0s")); err != nil || d < 0 {
			return fmt.Errorf("ttl %q: want a duration that is not negative", ttl)
		}
	}
	return gateway.Config{MinBytes: c.MinBytes, MaxBytes: c.MaxBytes, FallbackStrategy: c.FallbackStrategy, SkipTools: c.SkipTools}.Validate()
}
