package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Defaults of Config, as DefaultConfig returns them.
const (
	DefaultContextWindow   = 128_000
	DefaultMaxOutputTokens = 4096
	DefaultBufferTokens    = 256
	DefaultMaxChunks       = 1
	DefaultMaxChunksLong   = 64
	DefaultLineThreshold   = 1000
	DefaultOverlapPercent  = 10
	DefaultConcurrency     = 4
	DefaultReadGrepTurns   = 15
	DefaultReadGrepCalls   = 10
	DefaultHeadPercent     = 20
)

// Config holds the knobs of routing and full-chunked extraction. It is the
// one definition of them: scenarios (yaml tags), the gateway and bench
// configuration (json tags), the CLI's flags and bench sweeps (the Knobs
// table) all bind to these fields. Every value means what it says: 0 overlap
// is no overlap and 0 buffer no buffer. Start from DefaultConfig and change
// what you need; Validate refuses a value out of range, a zero context window
// or chunk limit among them.
type Config struct {
	// ContextWindow is the extraction model's context, in tokens.
	ContextWindow int `json:"context_window" yaml:"context_window"`
	// MaxOutputTokens is the most tokens a map or reduce answer may take; it
	// is sent with each request and reserved in the chunk budget.
	MaxOutputTokens int `json:"max_output_tokens" yaml:"max_output_tokens"`
	// BufferTokens is kept free for message framing and tokenizer drift
	// between this count and the provider's.
	BufferTokens int `json:"buffer_tokens" yaml:"buffer_tokens"`
	// MaxChunks is MAX_CHUNKS_FOR_FULL_MODE: auto picks full-chunked for
	// short-line output only when it fits in this many chunks, and
	// full-chunked on short-line output never makes more map calls.
	MaxChunks int `json:"max_chunks" yaml:"max_chunks"`
	// MaxChunksLong bounds the map calls on long-line output (average line
	// >= LineThreshold), which full-chunked reads whatever its size because
	// grep cannot narrow it down; it is a cost guard.
	MaxChunksLong int `json:"max_chunks_long" yaml:"max_chunks_long"`
	// LineThreshold routes output whose average line is at least this many
	// bytes to full-chunked: grepping such lines returns little less than the
	// whole document.
	LineThreshold int `json:"line_threshold" yaml:"line_threshold"`
	// OverlapPercent is the share of the chunk budget that consecutive chunks
	// share, 0 to 49.
	OverlapPercent int `json:"overlap_percent" yaml:"overlap_percent"`
	// Concurrency bounds the map calls in flight.
	Concurrency int `json:"concurrency" yaml:"concurrency"`
	// ReadGrepTurns is the most turns of the read-grep sub-agent.
	ReadGrepTurns int `json:"read_grep_turns" yaml:"read_grep_turns"`
	// ReadGrepCallsPerTurn is the most tool calls it may make in one turn.
	ReadGrepCallsPerTurn int `json:"read_grep_calls_per_turn" yaml:"read_grep_calls_per_turn"`
	// HeadPercent is the share of the head-tail budget given to the head,
	// 0 to 100; the tail gets the rest (20: Gemini CLI's 20% head, 80%
	// tail, since errors and results come last).
	HeadPercent int `json:"head_percent" yaml:"head_percent"`
	// OfferModes lists the modes offered to the model beyond the spec's
	// four: json-aware, head-tail and query. Empty (the default) offers the spec's
	// exact schema; listing one is a deliberate deviation from it (the
	// enum and the description then name it, see [ToolFor]). A mode not
	// offered is an unknown mode: auto.
	OfferModes []string `json:"offer_modes,omitempty" yaml:"offer_modes"`
	// TruncateWith is how truncate cuts, explicit or as the fallback of a
	// failed strategy: "bytes" (the default: head and tail bytes around a
	// marker, [Truncate]), "head-tail" (head and tail lines by HeadPercent
	// and the error lines of the middle, core/headtail) or "json-aware"
	// (JSON output shortened into valid JSON, core/jsonaware; any other
	// output by bytes). The mode name and the fallback warning stay
	// truncate's.
	TruncateWith string `json:"truncate_with" yaml:"truncate_with"`
}

// Ways truncate can cut (Config.TruncateWith).
const (
	CutBytes     = "bytes"
	CutHeadTail  = ModeHeadTail
	CutJSONAware = ModeJSONAware
)

// cuts lists the values of Config.TruncateWith.
var cuts = []string{CutBytes, CutHeadTail, CutJSONAware}

// DefaultConfig returns the spec's defaults: a 128k window, 4,096 output
// tokens, a 256-token buffer, one chunk for short lines and 64 for long
// ones from 1,000 bytes a line, 10% overlap, 4 map calls in flight, a
// read-grep sub-agent of 15 turns of at most 10 calls, the spec's exact
// schema (no extra mode offered) and truncate cutting bytes; head-tail
// gives the head 20%.
func DefaultConfig() Config {
	return Config{
		ContextWindow: DefaultContextWindow, MaxOutputTokens: DefaultMaxOutputTokens, BufferTokens: DefaultBufferTokens,
		MaxChunks: DefaultMaxChunks, MaxChunksLong: DefaultMaxChunksLong, LineThreshold: DefaultLineThreshold,
		OverlapPercent: DefaultOverlapPercent, Concurrency: DefaultConcurrency,
		ReadGrepTurns: DefaultReadGrepTurns, ReadGrepCallsPerTurn: DefaultReadGrepCalls,
		HeadPercent: DefaultHeadPercent, TruncateWith: CutBytes,
	}
}

// Knob is one field of Config, by the name its tags give it.
type Knob struct {
	// Name is the field's yaml and json name, e.g. "overlap_percent".
	Name string
	// Min and Max bound the value (inclusive).
	Min, Max int
	// Doc is a one-line description, for flag help.
	Doc string
	// Field returns the field of c.
	Field func(c *Config) *int
}

// maxKnob bounds the knobs that have no smaller natural limit: a billion
// tokens, chunks or turns is past any model and keeps every product of two
// of them within an int.
const maxKnob = 1 << 30

// Knobs lists every field of Config with its range, in declaration order:
// the table that validation, the CLI's flags and bench sweeps share.
func Knobs() []Knob {
	return []Knob{
		{"context_window", 1, maxKnob, "the extraction model's context, in tokens", func(c *Config) *int { return &c.ContextWindow }},
		{"max_output_tokens", 1, maxKnob, "most tokens of a map or reduce answer", func(c *Config) *int { return &c.MaxOutputTokens }},
		{"buffer_tokens", 0, maxKnob, "tokens kept free for framing and tokenizer drift", func(c *Config) *int { return &c.BufferTokens }},
		{"max_chunks", 1, maxKnob, "MAX_CHUNKS_FOR_FULL_MODE: most chunks for short-line output", func(c *Config) *int { return &c.MaxChunks }},
		{"max_chunks_long", 1, maxKnob, "most chunks for long-line output", func(c *Config) *int { return &c.MaxChunksLong }},
		{"line_threshold", 1, maxKnob, "average line bytes from which auto picks full-chunked", func(c *Config) *int { return &c.LineThreshold }},
		{"overlap_percent", 0, 49, "overlap between consecutive chunks, in percent of the budget", func(c *Config) *int { return &c.OverlapPercent }},
		{"concurrency", 1, maxKnob, "most map calls in flight", func(c *Config) *int { return &c.Concurrency }},
		{"read_grep_turns", 1, maxKnob, "most turns of the read-grep sub-agent", func(c *Config) *int { return &c.ReadGrepTurns }},
		{"read_grep_calls_per_turn", 1, maxKnob, "most tool calls of a read-grep turn", func(c *Config) *int { return &c.ReadGrepCallsPerTurn }},
		{"head_percent", 0, 100, "share of the head-tail budget given to the head, in percent", func(c *Config) *int { return &c.HeadPercent }},
	}
}

// Validate reports the first integer field out of its range as a
// *KnobError, then a bad OfferModes or TruncateWith as a *ChoiceError.
func (c Config) Validate() error {
	for _, k := range Knobs() {
		if v := *k.Field(&c); v < k.Min || v > k.Max {
			return &KnobError{Knob: k, Value: v}
		}
	}
	for i, m := range c.OfferModes {
		switch {
		case !slices.Contains(ExtraModes, m):
			return &ChoiceError{Name: "offer_modes", Value: m, Index: i, Want: ExtraModes}
		case slices.Contains(c.OfferModes[:i], m):
			return &ChoiceError{Name: "offer_modes", Value: m, Index: i, Msg: "listed twice"}
		}
	}
	if !slices.Contains(cuts, c.TruncateWith) {
		return &ChoiceError{Name: "truncate_with", Value: c.TruncateWith, Index: -1, Want: cuts}
	}
	return nil
}

// Offers reports whether the schema offered under c lists mode: the spec's
// four always, json-aware, head-tail and query when OfferModes names them.
func (c Config) Offers(mode string) bool {
	return slices.Contains(SpecModes, mode) || slices.Contains(c.OfferModes, mode)
}

// ChoiceError is a Config field whose value is not one of its choices:
// `truncate_with "chars": want bytes, head-tail or json-aware`. Name is
// the field's yaml and json name; the CLI names its flag instead.
type ChoiceError struct {
	Name, Value string
	// Index is the value's position in a list field, -1 for a scalar.
	Index int
	// Want lists the choices; Msg, when set, says what is wrong instead.
	Want []string
	Msg  string
}

// Error starts with the key path (a list item's index after a dot, as the
// scenario loader expects): `offer_modes.1 "summarize": want json-aware or
// head-tail`.
func (e *ChoiceError) Error() string {
	return fmt.Sprintf("%s %q: %s", strings.Join(e.KeyPath(), "."), e.Value, e.Problem())
}

// Problem is the message without the field: "want bytes, head-tail or
// json-aware".
func (e *ChoiceError) Problem() string {
	if e.Msg != "" {
		return e.Msg
	}
	return "want " + orList(e.Want)
}

// KeyPath names the field, and the list item for offer_modes, so that a
// scenario's error points at it.
func (e *ChoiceError) KeyPath() []string {
	if e.Index >= 0 {
		return []string{e.Name, strconv.Itoa(e.Index)}
	}
	return []string{e.Name}
}

// KeyPath names the knob, so that a scenario's error points at it.
func (e *KnobError) KeyPath() []string { return []string{e.Knob.Name} }

// orList joins "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// KnobError is a knob out of its range. Its message names the knob by its
// yaml and json name, "overlap_percent 50: must be 0 to 49"; the CLI names
// its flag instead.
type KnobError struct {
	Knob  Knob
	Value int
}

func (e *KnobError) Error() string {
	return fmt.Sprintf("%s %d: %s", e.Knob.Name, e.Value, e.Knob.Range())
}

// Range describes the knob's range: "must be 0 to 49", "must be positive".
func (k Knob) Range() string {
	switch {
	case k.Max < maxKnob:
		return fmt.Sprintf("must be %d to %d", k.Min, k.Max)
	case k.Min == 1:
		return fmt.Sprintf("must be positive (at most %d)", k.Max)
	default:
		return fmt.Sprintf("must be %d or more (at most %d)", k.Min, k.Max)
	}
}
