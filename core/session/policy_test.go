package session_test

import (
	"encoding/json"
	"errors"
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/store"
)

func ip(n int) *int              { return &n }
func fp(k float64) *float64      { return &k }
func stats(b, t int) store.Stats { return store.Stats{Bytes: b, Tokens: t} }

// base is the policy of the table: a 100-byte cap, k = 1, Read and Grep
// exempt, and overrides for a few tools.
func base() session.Policy {
	p := session.DefaultPolicy()
	p.MaxBytes = 100
	p.Tools = map[string]session.ToolPolicy{
		"logs":     {MaxBytes: ip(50)},
		"nocap":    {MaxBytes: ip(0)},
		"half":     {ContextFactor: fp(0.5)},
		"noctx":    {ContextFactor: fp(0)},
		"shot":     {NeverStore: true},
		"Read":     {ContextFactor: fp(0.5)},
		"both":     {MaxBytes: ip(1000), ContextFactor: fp(0.1)},
		"unlisted": {},
	}
	return p
}

func with(f func(*session.Policy)) session.Policy { p := base(); f(&p); return p }

const maxInt = math.MaxInt

var _ = Describe("Policy.Decide", func() {
	DescribeTable("every rule, its boundaries and its reason",
		func(p session.Policy, tool string, st store.Stats, remaining int, want session.Decision) {
			Expect(p.Decide(tool, st, remaining)).To(Equal(want))
		},
		// The byte rule: strictly over the cap.
		Entry("at the byte cap", base(), "t", stats(100, 10), 1000, session.Decision{}),
		Entry("one byte over the cap", base(), "t", stats(101, 10), 1000,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 101 > cap 100"}),
		Entry("a cap of 0 is no byte rule", with(func(p *session.Policy) { p.MaxBytes = 0 }), "t", stats(1<<30, 10), -1, session.Decision{}),
		Entry("a negative cap is no byte rule", with(func(p *session.Policy) { p.MaxBytes = -1 }), "t", stats(1<<30, 10), -1, session.Decision{}),
		// The context rule: tokens over floor(k × remaining).
		Entry("fills what is left exactly", base(), "t", stats(50, 800), 800, session.Decision{}),
		Entry("one token over what is left", base(), "t", stats(50, 801), 800,
			session.Decision{Store: true, Rule: "context", Reason: "context: 801 tokens > 1 x remaining 800 = 800 tokens"}),
		Entry("k = 0.5 at its limit", with(func(p *session.Policy) { p.ContextFactor = 0.5 }), "t", stats(50, 500), 1000, session.Decision{}),
		Entry("k = 0.5, one over", with(func(p *session.Policy) { p.ContextFactor = 0.5 }), "t", stats(50, 501), 1000,
			session.Decision{Store: true, Rule: "context", Reason: "context: 501 tokens > 0.5 x remaining 1000 = 500 tokens"}),
		Entry("k × remaining rounds down", with(func(p *session.Policy) { p.ContextFactor = 0.5 }), "t", stats(50, 5), 9,
			session.Decision{Store: true, Rule: "context", Reason: "context: 5 tokens > 0.5 x remaining 9 = 4 tokens"}),
		Entry("k is exact to six places (0.29 × 100 is 29)", with(func(p *session.Policy) { p.ContextFactor = 0.29 }), "t", stats(50, 29), 100, session.Decision{}),
		Entry("k = 0.29, one over", with(func(p *session.Policy) { p.ContextFactor = 0.29 }), "t", stats(50, 30), 100,
			session.Decision{Store: true, Rule: "context", Reason: "context: 30 tokens > 0.29 x remaining 100 = 29 tokens"}),
		Entry("k = 0 is no context rule", with(func(p *session.Policy) { p.ContextFactor = 0 }), "t", stats(50, 1<<30), 0, session.Decision{}),
		Entry("a negative remaining is no context rule", base(), "t", stats(50, 1<<30), -1, session.Decision{}),
		Entry("nothing left: an empty output still passes", base(), "t", stats(0, 0), 0, session.Decision{}),
		Entry("nothing left: one token is stored", base(), "t", stats(4, 1), 0,
			session.Decision{Store: true, Rule: "context", Reason: "context: 1 tokens > 1 x remaining 0 = 0 tokens"}),
		// Both fire: the smaller limit, in bytes of this output, names the rule.
		Entry("both fire, the context limit is smaller (200 bytes < 300)", with(func(p *session.Policy) { p.MaxBytes = 300 }), "t", stats(400, 100), 50,
			session.Decision{Store: true, Rule: "context", Reason: "context: 100 tokens > 1 x remaining 50 = 50 tokens"}),
		Entry("both fire, the byte cap is smaller (300 < 360 bytes)", with(func(p *session.Policy) { p.MaxBytes = 300 }), "t", stats(400, 100), 90,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 400 > cap 300"}),
		Entry("both fire at equal limits: bytes", with(func(p *session.Policy) { p.MaxBytes = 300 }), "t", stats(400, 100), 75,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 400 > cap 300"}),
		// Overrides.
		Entry("a tool's own cap", base(), "logs", stats(51, 1), 1000,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 51 > cap 50 for logs"}),
		Entry("a tool's own cap, at it", base(), "logs", stats(50, 1), 1000, session.Decision{}),
		Entry("another tool keeps the policy's cap", base(), "other", stats(51, 1), 1000, session.Decision{}),
		Entry("a tool's cap of 0: no byte rule for it", base(), "nocap", stats(1<<30, 1), 1000, session.Decision{}),
		Entry("a tool's cap of 0 keeps the context rule", base(), "nocap", stats(1<<30, 1001), 1000,
			session.Decision{Store: true, Rule: "context", Reason: "context: 1001 tokens > 1 x remaining 1000 = 1000 tokens"}),
		Entry("a tool's own k", base(), "half", stats(50, 501), 1000,
			session.Decision{Store: true, Rule: "context", Reason: "context: 501 tokens > 0.5 x remaining 1000 = 500 tokens for half"}),
		Entry("a tool's k of 0: no context rule for it", base(), "noctx", stats(50, 1<<30), 10, session.Decision{}),
		Entry("a tool's own cap and k", base(), "both", stats(900, 101), 1000,
			session.Decision{Store: true, Rule: "context", Reason: "context: 101 tokens > 0.1 x remaining 1000 = 100 tokens for both"}),
		Entry("an empty override changes nothing", base(), "unlisted", stats(101, 1), 1000,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 101 > cap 100"}),
		// Exempt tools: never stored; cut in place over the context limit.
		Entry("tool_output, within the limits", base(), "tool_output", stats(10, 1), 1000,
			session.Decision{Exempt: true, Reason: "exempt: recovery tool tool_output"}),
		Entry("tool_output over the byte cap: shown whole", base(), "tool_output", stats(10_000, 10), 1000,
			session.Decision{Exempt: true, Rule: "bytes", Reason: "exempt: recovery tool tool_output; bytes: 10000 > cap 100, not stored"}),
		Entry("tool_output over the context limit: cut in place", base(), "tool_output", stats(10_000, 1000), 250,
			session.Decision{Exempt: true, Cut: true, Keep: 2500, Rule: "context",
				Reason: "exempt: recovery tool tool_output; context: 1000 tokens > 1 x remaining 250 = 250 tokens, cut in place to 2500 bytes"}),
		Entry("tool_output even when no recovery tool is listed", with(func(p *session.Policy) { p.RecoveryTools = nil }), "tool_output", stats(10_000, 10), 1000,
			session.Decision{Exempt: true, Rule: "bytes", Reason: "exempt: recovery tool tool_output; bytes: 10000 > cap 100, not stored"}),
		Entry("Grep over the byte cap", base(), "Grep", stats(500, 10), 1000,
			session.Decision{Exempt: true, Rule: "bytes", Reason: "exempt: recovery tool Grep; bytes: 500 > cap 100, not stored"}),
		Entry("Read with its own k, cut where it says", base(), "Read", stats(900, 300), 400,
			session.Decision{Exempt: true, Cut: true, Keep: 600, Rule: "context",
				Reason: "exempt: recovery tool Read; context: 300 tokens > 0.5 x remaining 400 = 200 tokens for Read, cut in place to 600 bytes"}),
		Entry("Read with nothing left is cut to nothing", base(), "Read", stats(900, 300), 0,
			session.Decision{Exempt: true, Cut: true, Keep: 0, Rule: "context",
				Reason: "exempt: recovery tool Read; context: 300 tokens > 0.5 x remaining 0 = 0 tokens for Read, cut in place to 0 bytes"}),
		Entry("names are exact: read is not Read", base(), "read", stats(101, 1), 1000,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 101 > cap 100"}),
		Entry("an empty recovery list: Read is stored like any tool", with(func(p *session.Policy) { p.RecoveryTools = []string{}; p.Tools = nil }), "Read", stats(101, 1), 1000,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 101 > cap 100"}),
		Entry("a listed recovery tool", with(func(p *session.Policy) { p.RecoveryTools = []string{"fetch_page"} }), "fetch_page", stats(101, 1), 1000,
			session.Decision{Exempt: true, Rule: "bytes", Reason: "exempt: recovery tool fetch_page; bytes: 101 > cap 100, not stored"}),
		Entry("never_store", base(), "shot", stats(1_000_000, 10), 1000,
			session.Decision{Exempt: true, Rule: "bytes", Reason: "exempt: never_store for shot; bytes: 1000000 > cap 100, not stored"}),
		// Huge and hostile values: no overflow, no panic.
		Entry("the largest sizes, k = 1", base(), "t", stats(maxInt, maxInt), maxInt,
			session.Decision{Store: true, Rule: "bytes", Reason: "bytes: 9223372036854775807 > cap 100"}),
		Entry("the largest sizes, the context limit in bytes", with(func(p *session.Policy) { p.MaxBytes = 0 }), "t", stats(maxInt, maxInt), maxInt-1,
			session.Decision{Store: true, Rule: "context", Reason: "context: 9223372036854775807 tokens > 1 x remaining 9223372036854775806 = 9223372036854775806 tokens"}),
		Entry("the largest sizes, k = 0.5", with(func(p *session.Policy) { p.ContextFactor = 0.5; p.MaxBytes = 0 }), "t", stats(1, maxInt/2+1), maxInt,
			session.Decision{Store: true, Rule: "context", Reason: "context: 4611686018427387904 tokens > 0.5 x remaining 9223372036854775807 = 4611686018427387903 tokens"}),
		Entry("the largest sizes, an exempt tool's cut", base(), "Grep", stats(maxInt, maxInt), maxInt-1,
			session.Decision{Exempt: true, Cut: true, Keep: maxInt - 1, Rule: "context",
				Reason: "exempt: recovery tool Grep; context: 9223372036854775807 tokens > 1 x remaining 9223372036854775806 = 9223372036854775806 tokens, cut in place to 9223372036854775806 bytes"}),
		Entry("negative stats count as empty", base(), "t", stats(-5, -5), 0, session.Decision{}),
		Entry("an unvalidated k over 1 counts as 1", with(func(p *session.Policy) { p.ContextFactor = 4 }), "t", stats(50, 801), 800,
			session.Decision{Store: true, Rule: "context", Reason: "context: 801 tokens > 1 x remaining 800 = 800 tokens"}),
		Entry("an unvalidated NaN k is no context rule", with(func(p *session.Policy) { p.ContextFactor = math.NaN() }), "t", stats(50, 801), 800, session.Decision{}),
	)
})

var _ = Describe("Policy.Validate", func() {
	It("accepts the defaults and the zero policy", func() {
		Expect(session.DefaultPolicy().Validate()).To(Succeed())
		Expect(session.Policy{}.Validate()).To(Succeed())
		Expect(base().Validate()).To(Succeed()) // Read's k override is fine
	})

	DescribeTable("refuses every bad value, naming its keys",
		func(p session.Policy, want ...string) {
			err := p.Validate()
			Expect(err).To(HaveOccurred())
			var got []string
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				var fe *session.FieldError
				Expect(errors.As(e, &fe)).To(BeTrue())
				got = append(got, fe.Error())
			}
			Expect(got).To(Equal(want))
		},
		Entry("a negative cap", session.Policy{MaxBytes: -1}, "max_bytes: -1: must be 0 (no byte rule) to 1099511627776"),
		Entry("a cap past 1 TiB", session.Policy{MaxBytes: 1<<40 + 1}, "max_bytes: 1099511627777: must be 0 (no byte rule) to 1099511627776"),
		Entry("k over 1", session.Policy{ContextFactor: 1.000001}, "context_factor: 1.000001: must be 0 (no context rule) to 1"),
		Entry("a negative k", session.Policy{ContextFactor: -0.5}, "context_factor: -0.5: must be 0 (no context rule) to 1"),
		Entry("NaN", session.Policy{ContextFactor: math.NaN()}, "context_factor: NaN: must be 0 (no context rule) to 1"),
		Entry("infinity", session.Policy{ContextFactor: math.Inf(1)}, "context_factor: +Inf: must be 0 (no context rule) to 1"),
		Entry("k under one millionth", session.Policy{ContextFactor: 4e-7},
			"context_factor: 4e-07: under one millionth, it would read as 0 (no context rule); write 0 for that"),
		Entry("recovery tools empty and repeated", session.Policy{RecoveryTools: []string{"Read", "", "Read"}},
			"recovery_tools.1: a tool name is empty", `recovery_tools.2: "Read" is listed twice`),
		Entry("overrides, in name order", session.Policy{RecoveryTools: []string{"Read"}, Tools: map[string]session.ToolPolicy{
			"z":           {MaxBytes: ip(-1), ContextFactor: fp(2)},
			"":            {},
			"Read":        {MaxBytes: ip(10)},
			"tool_output": {MaxBytes: ip(10), ContextFactor: fp(0.5)},
			"shot":        {NeverStore: true, MaxBytes: ip(10)},
		}},
			`tools."": a tool name is empty`,
			"tools.Read.max_bytes: Read is exempt (recovery tool Read): its output is never stored, so a byte cap decides nothing; its context_factor bounds where it is cut",
			"tools.shot.max_bytes: shot is exempt (never_store for shot): its output is never stored, so a byte cap decides nothing; its context_factor bounds where it is cut",
			"tools.tool_output.max_bytes: tool_output is exempt (recovery tool tool_output): its output is never stored, so a byte cap decides nothing; its context_factor bounds where it is cut",
			"tools.z.max_bytes: -1: must be 0 (no byte rule) to 1099511627776",
			"tools.z.context_factor: 2: must be 0 (no context rule) to 1"),
	)

	It("gives the path of each error as keys", func() {
		err := session.Policy{Tools: map[string]session.ToolPolicy{"a.b": {ContextFactor: fp(-1)}}}.Validate()
		var fe *session.FieldError
		Expect(errors.As(err, &fe)).To(BeTrue())
		Expect(fe.KeyPath()).To(Equal([]string{"tools", "a.b", "context_factor"}))
	})
})

var _ = Describe("Policy's configuration", func() {
	It("decodes from JSON over the defaults, by the same names as YAML", func() {
		p := session.DefaultPolicy()
		Expect(json.Unmarshal([]byte(`{"context_factor": 0.5, "tools": {"logs": {"max_bytes": 4096}, "shot": {"never_store": true}}}`), &p)).To(Succeed())
		Expect(p.Validate()).To(Succeed())
		Expect(p.MaxBytes).To(Equal(session.DefaultMaxToolResponseBytes))
		Expect(p.RecoveryTools).To(Equal([]string{"Read", "Grep"}))
		Expect(p.Tools).To(Equal(map[string]session.ToolPolicy{"logs": {MaxBytes: ip(4096)}, "shot": {NeverStore: true}}))
		Expect(p.Decide("logs", stats(4097, 1), -1).Reason).To(Equal("bytes: 4097 > cap 4096 for logs"))
	})
})
