package session

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/fstools"
	"github.com/toolout/toolout/core/store"
)

// Defaults of Policy, as DefaultPolicy returns them.
const (
	// DefaultContextFactor is k: an output may take all the context that is
	// left, no more (Gemini CLI's "4x the remaining context" counts four
	// characters a token; here tokens are counted, so its 4x is our 1).
	DefaultContextFactor = 1.0
)

// DefaultRecoveryTools are the tools whose answers read a stored output back
// (core/fstools' Read and Grep); with tool_output, which is always exempt,
// their outputs are never stored.
func DefaultRecoveryTools() []string { return []string{fstools.ReadName, fstools.GrepName} }

// Policy decides which tool outputs the session stores instead of showing
// (spec section 2a, decision 11): the session's rule, applied before anything
// reaches the store. It is the one definition of the policy's configuration:
// scenarios (yaml tags) and any config file (json tags) bind to its fields.
// Every value means what it says (0 turns a rule off); start from
// DefaultPolicy and change what you need; Validate refuses a value out of
// range. The package doc states the exact comparisons.
type Policy struct {
	// MaxBytes is the byte cap: an output of more bytes is stored. 0 turns
	// the byte rule off (Decide treats a negative cap the same).
	MaxBytes int `json:"max_bytes" yaml:"max_bytes"`
	// ContextFactor is k, 0 to 1: an output of more tokens than k × the
	// context left is stored. 0 turns the context rule off. It is read to
	// six decimal places.
	ContextFactor float64 `json:"context_factor" yaml:"context_factor"`
	// RecoveryTools are never stored, besides tool_output (always exempt,
	// by the spec); an answer of theirs that does not fit the context limit
	// is cut in place instead.
	RecoveryTools []string `json:"recovery_tools" yaml:"recovery_tools"`
	// Tools overrides the limits for one tool, by name.
	Tools map[string]ToolPolicy `json:"tools,omitempty" yaml:"tools"`
}

// ToolPolicy is one tool's override; an unset field is the policy's.
type ToolPolicy struct {
	// MaxBytes is the tool's byte cap (0: no byte rule for it).
	MaxBytes *int `json:"max_bytes,omitempty" yaml:"max_bytes"`
	// ContextFactor is the tool's k (0: no context rule for it).
	ContextFactor *float64 `json:"context_factor,omitempty" yaml:"context_factor"`
	// NeverStore exempts the tool like a recovery tool: its output is shown,
	// cut in place when it does not fit the context limit.
	NeverStore bool `json:"never_store,omitempty" yaml:"never_store"`
}

// withHint returns p with the byte cap of tool set to hint, a limit the
// tool declared with its result (SizeHinter), when hint is positive; the
// tool's other overrides stay. The hint counts characters; the cap counts
// bytes, so non-ASCII text meets it sooner than the tool meant.
func (p Policy) withHint(tool string, hint int) Policy {
	if hint <= 0 {
		return p
	}
	tools := make(map[string]ToolPolicy, len(p.Tools)+1)
	maps.Copy(tools, p.Tools)
	tp := tools[tool]
	tp.MaxBytes = &hint
	tools[tool] = tp
	p.Tools = tools
	return p
}

// DefaultPolicy returns the session's defaults: a byte cap of
// DefaultMaxToolResponseBytes (12 KiB), k = 1, and Read and Grep as
// recovery tools.
func DefaultPolicy() Policy {
	return Policy{MaxBytes: DefaultMaxToolResponseBytes, ContextFactor: DefaultContextFactor,
		RecoveryTools: DefaultRecoveryTools()}
}

// Decision says what to do with an output, and why.
type Decision struct {
	// Store: store the output and show the handle message.
	Store bool
	// Exempt: the output may not be stored (tool_output, a recovery tool, a
	// never_store override).
	Exempt bool
	// Cut: an exempt output over the context limit; show extract.Truncate
	// of it to Keep bytes instead.
	Cut  bool
	Keep int
	// Rule is the rule that fired, "bytes" or "context" (for an exempt
	// output, the one that would have stored it); empty when none did.
	Rule string
	// Reason names the rule that fired, with its numbers: "bytes: 52000 >
	// cap 40000", "context: 13000 tokens > 0.5 x remaining 9000 = 4500
	// tokens", "exempt: recovery tool Read" (and, for an exempt output, the
	// rule that would have stored it). Empty when nothing fired.
	Reason string
}

// millionths is k's scale: k is read to six decimal places, so that
// k × remaining is exact (0.29 × 100 is 29, not 28.999…).
const millionths = 1_000_000

// limits are the rules that apply to one tool.
type limits struct {
	maxBytes int    // 0: no byte rule
	ppm      uint64 // k in millionths; 0: no context rule
	bytesFor string // " for NAME" when an override set the byte cap
	ctxFor   string // " for NAME" when an override set k
	exempt   string // why the tool is exempt, "" when it is not
}

func (p Policy) limits(tool string) limits {
	l := limits{maxBytes: max(p.MaxBytes, 0), ppm: ppm(p.ContextFactor)}
	o, ok := p.Tools[tool]
	if ok {
		if o.MaxBytes != nil {
			l.maxBytes, l.bytesFor = max(*o.MaxBytes, 0), " for "+tool
		}
		if o.ContextFactor != nil {
			l.ppm, l.ctxFor = ppm(*o.ContextFactor), " for "+tool
		}
	}
	switch {
	case tool == extract.ToolName:
		l.exempt = "recovery tool " + tool
	case slices.Contains(p.RecoveryTools, tool):
		l.exempt = "recovery tool " + tool
	case ok && o.NeverStore:
		l.exempt = "never_store for " + tool
	}
	return l
}

// ppm is k in millionths, rounded: NaN and k <= 0 are 0 (off), k >= 1 is 1.
func ppm(k float64) uint64 {
	switch {
	case !(k > 0): // NaN too
		return 0
	case k >= 1:
		return millionths
	}
	return uint64(math.Round(k * millionths))
}

// scale returns floor(n × ppm / 10^6) for n >= 0 and ppm <= 10^6, exactly
// and without overflow.
func scale(n int, ppm uint64) int {
	hi, lo := bits.Mul64(uint64(n), ppm)
	q, _ := bits.Div64(hi, lo, millionths) // q <= n: hi < 10^6
	return int(q)
}

// mulDiv returns floor(a × b / c) for 0 <= a < c and b >= 0: less than b.
func mulDiv(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c)) // q < b: hi < c
	return int(q)
}

// Decide applies the policy to an output of tool measured by st, with
// remaining tokens of context left (negative: no context rule). See the
// package doc for the rules and their exact comparisons.
func (p Policy) Decide(tool string, st store.Stats, remaining int) Decision {
	l := p.limits(tool)
	size, toks := max(st.Bytes, 0), max(st.Tokens, 0)
	overBytes := l.maxBytes > 0 && size > l.maxBytes
	overCtx, limit, ctxBytes := false, 0, 0
	if l.ppm > 0 && remaining >= 0 {
		limit = scale(remaining, l.ppm)
		if overCtx = toks > limit; overCtx {
			ctxBytes = mulDiv(limit, size, toks) // the limit in bytes of this output
		}
	}
	bytesWhy := func() string { return fmt.Sprintf("bytes: %d > cap %d%s", size, l.maxBytes, l.bytesFor) }
	ctxWhy := func() string {
		k := strconv.FormatFloat(float64(l.ppm)/millionths, 'f', -1, 64)
		return fmt.Sprintf("context: %d tokens > %s x remaining %d = %d tokens%s", toks, k, remaining, limit, l.ctxFor)
	}
	if l.exempt != "" {
		d := Decision{Exempt: true, Reason: "exempt: " + l.exempt}
		switch {
		case overCtx:
			d.Cut, d.Keep, d.Rule = true, ctxBytes, "context"
			d.Reason += fmt.Sprintf("; %s, cut in place to %d bytes", ctxWhy(), ctxBytes)
		case overBytes:
			d.Rule = "bytes"
			d.Reason += "; " + bytesWhy() + ", not stored"
		}
		return d
	}
	switch {
	case overCtx && (!overBytes || ctxBytes < l.maxBytes):
		return Decision{Store: true, Rule: "context", Reason: ctxWhy()}
	case overBytes:
		return Decision{Store: true, Rule: "bytes", Reason: bytesWhy()}
	}
	return Decision{}
}
