package extract

import "fmt"

// Defaults of Config.
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
)

// Config holds the knobs of routing and full-chunked extraction. The zero
// value of every field means its default; OverlapPercent or BufferTokens
// below zero means none.
type Config struct {
	// ContextWindow is the extraction model's context, in tokens.
	ContextWindow int `json:"context_window"`
	// MaxOutputTokens is the most tokens a map or reduce answer may take; it
	// is sent with each request and reserved in the chunk budget.
	MaxOutputTokens int `json:"max_output_tokens"`
	// BufferTokens is kept free for message framing and tokenizer drift
	// between this count and the provider's.
	BufferTokens int `json:"buffer_tokens"`
	// MaxChunks is MAX_CHUNKS_FOR_FULL_MODE: auto picks full-chunked for
	// short-line output only when it fits in this many chunks, and
	// full-chunked on short-line output never makes more map calls.
	MaxChunks int `json:"max_chunks"`
	// MaxChunksLong bounds the map calls on long-line output (average line
	// >= LineThreshold), which full-chunked reads whatever its size because
	// grep cannot narrow it down; it is a cost guard.
	MaxChunksLong int `json:"max_chunks_long"`
	// LineThreshold routes output whose average line is at least this many
	// bytes to full-chunked: grepping such lines returns little less than the
	// whole document.
	LineThreshold int `json:"line_threshold"`
	// OverlapPercent is the share of the chunk budget that consecutive chunks
	// share, 0 to 49; below zero means none.
	OverlapPercent int `json:"overlap_percent"`
	// Concurrency bounds the map calls in flight.
	Concurrency int `json:"concurrency"`
	// ReadGrepTurns is the most turns of the read-grep sub-agent.
	ReadGrepTurns int `json:"read_grep_turns"`
	// ReadGrepCallsPerTurn is the most tool calls it may make in one turn.
	ReadGrepCallsPerTurn int `json:"read_grep_calls_per_turn"`
}

// WithDefaults returns c with every zero field set to its default, and a
// negative OverlapPercent or BufferTokens set to 0.
func (c Config) WithDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.ContextWindow, DefaultContextWindow)
	def(&c.MaxOutputTokens, DefaultMaxOutputTokens)
	def(&c.BufferTokens, DefaultBufferTokens)
	def(&c.MaxChunks, DefaultMaxChunks)
	def(&c.MaxChunksLong, DefaultMaxChunksLong)
	def(&c.LineThreshold, DefaultLineThreshold)
	def(&c.OverlapPercent, DefaultOverlapPercent)
	def(&c.Concurrency, DefaultConcurrency)
	def(&c.ReadGrepTurns, DefaultReadGrepTurns)
	def(&c.ReadGrepCallsPerTurn, DefaultReadGrepCalls)
	c.OverlapPercent = max(c.OverlapPercent, 0)
	c.BufferTokens = max(c.BufferTokens, 0)
	return c
}

// Validate reports the first field out of range, after defaults.
func (c Config) Validate() error {
	c = c.WithDefaults()
	switch {
	case c.ContextWindow < 0:
		return fmt.Errorf("context window %d: must be positive", c.ContextWindow)
	case c.MaxOutputTokens < 0:
		return fmt.Errorf("max output tokens %d: must be positive", c.MaxOutputTokens)
	case c.MaxChunks < 0:
		return fmt.Errorf("max chunks %d: must be positive", c.MaxChunks)
	case c.MaxChunksLong < 0:
		return fmt.Errorf("max chunks for long lines %d: must be positive", c.MaxChunksLong)
	case c.LineThreshold < 0:
		return fmt.Errorf("line threshold %d: must be positive", c.LineThreshold)
	case c.OverlapPercent >= 50:
		return fmt.Errorf("overlap percent %d: must be below 50", c.OverlapPercent)
	case c.Concurrency < 0:
		return fmt.Errorf("concurrency %d: must be positive", c.Concurrency)
	case c.ReadGrepTurns < 0:
		return fmt.Errorf("read-grep turns %d: must be positive", c.ReadGrepTurns)
	case c.ReadGrepCallsPerTurn < 0:
		return fmt.Errorf("read-grep calls per turn %d: must be positive", c.ReadGrepCallsPerTurn)
	}
	return nil
}
