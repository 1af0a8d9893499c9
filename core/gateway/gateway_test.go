package gateway_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/internal/gatewaytest"
)

var ctx = context.Background()

type failing struct{}

func (failing) Compress(context.Context, gateway.Input) (string, error) {
	return "", errors.New("compressor down")
}

var _ = Describe("ShadowID", func() {
	It("is shadow_ and the hex of the first 16 bytes of SHA-256, stable and shared by identical contents", func() {
		Expect(gateway.ShadowID("hello")).To(Equal("shadow_2cf24dba5fb0a30e26e83b2ac5b9e29e"))
		Expect(gateway.ShadowID("hello")).To(Equal(gateway.ShadowID(strings.Clone("hello"))))
		Expect(gateway.ShadowID("hello ")).NotTo(Equal(gateway.ShadowID("hello")))
	})

	It("hashes contents of any length whole, around the size of the buffer it reads them through", func() {
		for _, n := range []int{0, 1, 4095, 4096, 4097, 8192, 200 << 10} {
			content := strings.Repeat("0123456789abcdef", n/16+1)[:n]
			sum := sha256.Sum256([]byte(content))
			Expect(gateway.ShadowID(content)).To(Equal("shadow_"+hex.EncodeToString(sum[:16])), "%d bytes", n)
		}
	})

	It("marks and parses the visible form", func() {
		m := gateway.Mark("shadow_1", "short")
		Expect(m).To(Equal("<<<SHADOW:shadow_1>>>\nshort"))
		id, text, ok := gateway.ParseMark(m)
		Expect([]any{id, text, ok}).To(Equal([]any{"shadow_1", "short", true}))
	})
})

var _ = Describe("Pipe", func() {
	simple := gateway.Simple{Words: 10}

	DescribeTable("compresses only when min_bytes < len <= max_bytes",
		func(n int, action string) {
			p := gatewaytest.NewPipe(gateway.Config{}, simple)
			res, err := p.Process(ctx, []gateway.ToolOutput{{Tool: "search", Content: gatewaytest.Sized(n)}}, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(res[0].Action).To(Equal(action))
		},
		Entry("at min_bytes", 2048, "passthrough"),
		Entry("one above min_bytes", 2049, "compressed"),
		Entry("at max_bytes", 65536, "compressed"),
		Entry("one above max_bytes", 65537, "passthrough"),
	)

	It("keeps a compression only when strictly smaller", func() {
		p := gatewaytest.NewPipe(gateway.Config{MinBytes: 10}, gateway.Passthrough{})
		res, _ := p.Process(ctx, []gateway.ToolOutput{{Content: gatewaytest.Words(500)}}, "")
		Expect(res[0].Action).To(Equal("passthrough"))
		Expect(res[0].Reason).To(HavePrefix("not smaller after compression"))
	})

	It("hits the compressed cache for identical content and counts it", func() {
		var calls atomic.Int32
		c := gatewaytest.CompressorFunc(func(in gateway.Input) (string, error) { calls.Add(1); return "short", nil })
		p := gatewaytest.NewPipe(gateway.Config{}, c)
		content := gatewaytest.Words(1000)
		first, _ := p.Process(ctx, []gateway.ToolOutput{{Content: content}}, "")
		second, _ := p.Process(ctx, []gateway.ToolOutput{{Content: content}}, "")
		Expect(first[0].Reason).To(Equal("compressed"))
		Expect(second[0].Reason).To(Equal("cache hit"))
		Expect(second[0].Text).To(Equal(first[0].Text))
		Expect(calls.Load()).To(BeEquivalentTo(1))
		m := p.Metrics()
		Expect([]int64{m.CacheHits, m.CacheMisses, m.CompressionsOK, m.CompressionsFailed}).To(Equal([]int64{1, 1, 1, 0}))
		Expect(m.BytesSaved).To(BeNumerically(">", 2*(len(content)-100)))
	})

	It("skips content already marked", func() {
		p := gatewaytest.NewPipe(gateway.Config{}, simple)
		res, _ := p.Process(ctx, []gateway.ToolOutput{{Content: gateway.Mark("shadow_x", gatewaytest.Sized(5000))}}, "")
		Expect(res[0].Action).To(Equal("skipped"))
	})

	DescribeTable("resolves skip_tools per provider",
		func(provider string, skip []string, tool string, skipped bool) {
			p := gatewaytest.NewPipe(gateway.Config{Provider: provider, SkipTools: skip}, simple)
			res, _ := p.Process(ctx, []gateway.ToolOutput{{Tool: tool, Content: gatewaytest.Sized(5000)}}, "")
			Expect(res[0].Action == "skipped").To(Equal(skipped))
		},
		Entry("anthropic bash is Bash", "anthropic", []string{"bash"}, "Bash", true),
		Entry("anthropic edit covers MultiEdit", "anthropic", []string{"edit"}, "MultiEdit", true),
		Entry("anthropic bash is not shell", "anthropic", []string{"bash"}, "shell", false),
		Entry("openai bash is shell", "openai", []string{"bash"}, "shell", true),
		Entry("unknown provider: every known name", "gemini", []string{"read"}, "read_file", true),
		Entry("unknown provider: every known name, anthropic's too", "gemini", []string{"read"}, "Read", true),
		Entry("unknown entry is an exact name", "openai", []string{"jira__search"}, "jira__search", true),
		Entry("exact name is case-sensitive", "openai", []string{"jira__search"}, "Jira__search", false),
	)

	It("falls back to passthrough on a compressor failure, or fails with fallback none", func() {
		p := gatewaytest.NewPipe(gateway.Config{}, failing{})
		res, err := p.Process(ctx, []gateway.ToolOutput{{Content: gatewaytest.Sized(5000)}}, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Action).To(Equal("passthrough"))
		Expect(res[0].Reason).To(Equal("compression failed, fallback passthrough: compressor down"))
		Expect(p.Metrics().CompressionsFailed).To(BeEquivalentTo(1))
		p = gatewaytest.NewPipe(gateway.Config{FallbackStrategy: "none"}, failing{})
		_, err = p.Process(ctx, []gateway.ToolOutput{{Tool: "t", Content: gatewaytest.Sized(5000)}}, "")
		Expect(err).To(MatchError("gateway: output 0 (t): compressor down"))
	})

	It("runs max_concurrent compressions at once, never more", func() {
		// The first three compressions wait at a barrier that opens only when
		// three are in flight together, so a pipe that compressed one at a
		// time would fail (after the deadline) instead of passing; the peak
		// shows that no fourth ever joined them.
		const limit = 3
		var inflight, peak atomic.Int32
		full := make(chan struct{})
		var once sync.Once
		barrier, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c := gatewaytest.CompressorFunc(func(in gateway.Input) (string, error) {
			n := inflight.Add(1)
			defer inflight.Add(-1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			if n >= limit {
				once.Do(func() { close(full) })
			}
			select {
			case <-full:
				return "c", nil
			case <-barrier.Done():
				return "", fmt.Errorf("never %d compressions in flight at once (peak %d)", limit, peak.Load())
			}
		})
		p := gatewaytest.NewPipe(gateway.Config{MaxConcurrent: limit, RateLimit: 1e6}, c)
		var outs []gateway.ToolOutput
		for i := range 30 {
			outs = append(outs, gateway.ToolOutput{Index: i, Content: fmt.Sprintf("%d %s", i, gatewaytest.Sized(3000))})
		}
		res, err := p.Process(ctx, outs, "")
		Expect(err).NotTo(HaveOccurred())
		for i, r := range res {
			Expect(r.Index).To(Equal(i))
			Expect(r.Action).To(Equal("compressed"), r.Reason)
		}
		Expect(peak.Load()).To(BeEquivalentTo(limit))
	})

	DescribeTable("rate-limits compressions with a token bucket on the injected clock",
		func(rate float64, n int, want []time.Duration) {
			src, clock := gatewaytest.Manual()
			var slept []time.Duration
			p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: rate, MaxConcurrent: 1}, Compressor: simple,
				Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src,
				Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); clock.Advance(d); return nil }})
			Expect(err).NotTo(HaveOccurred())
			for i := range n {
				_, err := p.Process(ctx, []gateway.ToolOutput{{Content: fmt.Sprintf("%d %s", i, gatewaytest.Sized(3000))}}, "")
				Expect(err).NotTo(HaveOccurred())
			}
			Expect(slept).To(Equal(want))
		},
		Entry("two a second: a burst of two, then one every 500 ms", 2.0, 5, []time.Duration{500 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond}),
		// The hand-written bucket before x/time/rate hung here: its capacity
		// of 0.5 never reached one token.
		Entry("under one a second: one every two seconds at 0.5", 0.5, 3, []time.Duration{2 * time.Second, 2 * time.Second}),
	)

	It("rejects a bad config", func() {
		_, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{MinBytes: 100, MaxBytes: 50}, Compressor: simple, Store: memstore.New(gateway.StoreOptions{})})
		Expect(err).To(MatchError("gateway: min_bytes 100 must be below max_bytes 50"))
		for _, r := range []float64{math.NaN(), math.Inf(1)} {
			_, err = gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: r}, Compressor: simple, Store: memstore.New(gateway.StoreOptions{})})
			Expect(err).To(MatchError(fmt.Sprintf("gateway: rate_limit %v: want a number of compressions per second", r)))
		}
	})
})

func first(s string, _ bool) string { return s }

var _ = Describe("adapters", func() {
	// Odd spacing, key order and unknown fields must survive byte for byte.
	openaiBody := `{ "model":"m", "x_unknown" : {"keep": [1,2, 3]},
  "messages": [
    {"role":"user","content":"How many errors?"},
    {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"logs__query","arguments":"{}"}}]},
    {"role":"tool","tool_call_id":"c1","content":"BIG"},
    {"role":"tool","tool_call_id":"c2","name":"other","content":[{"type":"text","text":"part one"},{"type":"text","text":"part two"}]}
  ] }`

	It("reads OpenAI tool messages with their tool names, and the user query, in one parse", func() {
		c, err := openai.Wire{}.Read([]byte(openaiBody))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Outputs).To(Equal([]gateway.ToolOutput{{Index: 0, CallID: "c1", Tool: "logs__query", Content: "BIG", Provider: "openai"},
			{Index: 1, CallID: "c2", Tool: "other", Content: "part onepart two", Provider: "openai"}})) // text parts concatenated, as sent
		Expect(c.Query).To(Equal("How many errors?"))
		Expect(c.Stream).To(BeFalse())
	})

	It("edits only the compressed contents, preserving every other byte, and adds the tool in the same splice", func() {
		c, err := openai.Wire{}.Read([]byte(openaiBody))
		Expect(err).NotTo(HaveOccurred())
		results := []gateway.Result{{Index: 0, Action: "compressed", Text: "<<<SHADOW:s>>>\nsmall"}, {Index: 1, Action: "passthrough", Text: "ignored"}}
		out, err := c.Rewrite(results, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(strings.Replace(openaiBody, `"content":"BIG"`, `"content":"<<<SHADOW:s>>>\nsmall"`, 1)))
		withTool, err := c.Rewrite(results, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(withTool)).To(HavePrefix(string(out[:len(out)-1])))
		Expect(json.Valid(withTool)).To(BeTrue())
		Expect(string(withTool)).To(ContainSubstring(`"tools":[{"type":"function","function":{"name":"expand_context"`))
	})

	anthropicBody := `{"model":"claude","system":"be brief","messages":[
 {"role":"user","content":"Find the failing test"},
 {"role":"assistant","content":[{"type":"text","text":"Running."},{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"go test"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":[{"type":"text","text":"FAIL x"}]}]}],
 "tools":[{"name":"Bash","input_schema":{"type":"object"}}]}`

	It("finds Anthropic tool_result blocks, edits them in place, and appends the phantom tool", func() {
		c, err := anthropic.Wire{}.Read([]byte(anthropicBody))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Outputs).To(Equal([]gateway.ToolOutput{{Index: 0, CallID: "tu1", Tool: "Bash", Content: "FAIL x", Provider: "anthropic"}}))
		Expect(c.Query).To(Equal("Find the failing test"))
		results := []gateway.Result{{Index: 0, Action: "compressed", Text: "c"}}
		out, err := c.Rewrite(results, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(strings.Replace(anthropicBody, `"content":[{"type":"text","text":"FAIL x"}]`, `"content":"c"`, 1)))
		out, err = c.Rewrite(results, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`{"name":"Bash","input_schema":{"type":"object"}},{"name":"expand_context"`))
	})

	It("finds, answers and strips phantom calls in Anthropic responses", func() {
		a := anthropic.Wire{}
		resp := []byte(`{"type":"message","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"p1","name":"expand_context","input":{"shadow_id":"shadow_1"}}],"stop_reason":"tool_use"}`)
		calls, err := a.PhantomCalls(resp)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].ShadowID).To(Equal("shadow_1"))
		next, err := a.AppendExpansions([]byte(anthropicBody), resp, calls, []string{"FULL"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(next)).To(ContainSubstring(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"p1","content":"FULL"}]}]`))
		stripped, err := a.StripPhantom(resp)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(stripped)).To(Equal(`{"type":"message","content":[{"type":"text","text":"Let me look."}],"stop_reason":"end_turn"}`))
	})

	It("replays an Anthropic turn with its thinking block and signature, as extended thinking requires, minus real tool calls", func() {
		resp := []byte(`{"type":"message","content":[{"type":"thinking","thinking":"Need the full log.","signature":"sig=="},` +
			`{"type":"text","text":"Expanding."},{"type":"tool_use","id":"r1","name":"Bash","input":{}},` +
			`{"type":"tool_use","id":"p1","name":"expand_context","input":{"shadow_id":"shadow_1"}}],"stop_reason":"tool_use"}`)
		a := anthropic.Wire{}
		calls, err := a.PhantomCalls(resp)
		Expect(err).NotTo(HaveOccurred())
		next, err := a.AppendExpansions([]byte(anthropicBody), resp, calls, []string{"FULL"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(next)).To(ContainSubstring(`{"role":"assistant","content":[{"type":"thinking","thinking":"Need the full log.","signature":"sig=="},` +
			`{"type":"text","text":"Expanding."},{"type":"tool_use","id":"p1","name":"expand_context","input":{"shadow_id":"shadow_1"}}]}`))
		Expect(json.Valid(next)).To(BeTrue())
	})

	It("finds a phantom call whose name an upstream spelled with escapes, and reads an answer that names none without parsing it", func() {
		escaped := []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"a","type":"function","function":{"name":"expand\u005fcontext","arguments":"{\"shadow_id\":\"s\"}"}}]},"finish_reason":"tool_calls"}]}`)
		plain := []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}]}`)
		g := &gateway.Gateway{Pipe: gatewaytest.NewPipe(gateway.Config{}, gateway.Simple{Words: 8}), Wire: openai.Wire{}, Expand: true}
		out, err := g.Forward(context.Background(), gateway.Prepared{Body: []byte(`{"model":"m","messages":[]}`)},
			func(_ context.Context, round int, _ []byte) ([]byte, error) {
				if round == 1 {
					return escaped, nil
				}
				return plain, nil
			})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Rounds).To(Equal(2))
		Expect(out.Expansions).To(HaveLen(1))
		Expect(string(out.Response)).To(Equal(string(plain)))
	})

	It("strips OpenAI phantom calls, keeping real ones", func() {
		resp := []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"a","type":"function","function":{"name":"expand_context","arguments":"{\"shadow_id\":\"s\"}"}},` +
			`{"id":"b","type":"function","function":{"name":"search","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
		out, err := openai.Wire{}.StripPhantom(resp)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"b","type":"function","function":{"name":"search","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`))
		only := []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"x","tool_calls":[{"id":"a","type":"function","function":{"name":"expand_context","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
		out, err = openai.Wire{}.StripPhantom(only)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}]}`))
	})

	It("reads duplicate keys as the upstream does (the last wins), so it compresses what the upstream will read", func() {
		body := `{"messages":[{"role":"tool","tool_call_id":"a","content":"decoy"}],"model":"m",` +
			`"messages":[{"role":"tool","tool_call_id":"b","content":"` + gatewaytest.Sized(5000) + `"}]}`
		c, err := openai.Wire{}.Read([]byte(body))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Outputs).To(HaveLen(1))
		Expect(c.Outputs[0].CallID).To(Equal("b"))
		var upstream struct {
			Messages []struct {
				ToolCallID string `json:"tool_call_id"`
			} `json:"messages"`
		}
		Expect(json.Unmarshal([]byte(body), &upstream)).To(Succeed())
		Expect(upstream.Messages[0].ToolCallID).To(Equal("b"), "encoding/json, like most upstreams, reads the last")
	})

	It("reports a malformed body with its byte offset", func() {
		_, err := openai.Wire{}.Read([]byte(`{"messages": [}`))
		Expect(err).To(MatchError(`openai request: invalid JSON at byte 14: unexpected '}'`))
	})
})

var _ = Describe("NewCompressor", func() {
	fn := core.LLMFunc(nil)
	var llmFunc core.LLM = &fn // comparable: Equal compares the pointer
	It("maps each strategy name to its compressor", func() {
		post := func(context.Context, string, string, []byte) ([]byte, error) {
			return []byte(`{"compressed":"c"}`), nil
		}
		cc := gateway.CompressorConfig{SimpleWords: 7, API: gateway.API{Endpoint: "http://x", Post: post}, LLM: llmFunc}
		for strategy, want := range map[string]gateway.Compressor{
			"": gateway.Passthrough{}, gateway.StrategyPassthrough: gateway.Passthrough{}, gateway.StrategySimple: gateway.Simple{Words: 7},
			gateway.StrategyExternalProvider: gateway.External{LLM: llmFunc},
		} {
			cc.Strategy = strategy
			c, err := gateway.NewCompressor(cc)
			Expect(err).NotTo(HaveOccurred())
			Expect(c).To(Equal(want), strategy)
		}
		cc.Strategy = gateway.StrategyAPI
		c, err := gateway.NewCompressor(cc)
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(BeAssignableToTypeOf(gateway.API{}))
		Expect(c.(gateway.API).Endpoint).To(Equal("http://x"))
		Expect(c.Compress(ctx, gateway.Input{Content: "long"})).To(Equal("c"), "the api compressor posts with the Post it was given")
	})

	It("names what a strategy lacks, and an unknown one", func() {
		_, err := gateway.NewCompressor(gateway.CompressorConfig{Strategy: gateway.StrategyAPI})
		Expect(err).To(MatchError("strategy api: api.endpoint is required"))
		_, err = gateway.NewCompressor(gateway.CompressorConfig{Strategy: gateway.StrategyAPI, API: gateway.API{Endpoint: "http://x"}})
		Expect(err).To(MatchError("strategy api: no HTTP poster wired (API.Post: proxy.Poster)"))
		_, err = gateway.NewCompressor(gateway.CompressorConfig{Strategy: gateway.StrategyExternalProvider})
		Expect(err).To(MatchError("strategy external_provider: a provider model is required"))
		_, err = gateway.NewCompressor(gateway.CompressorConfig{Strategy: "zip"})
		Expect(err).To(MatchError(`strategy "zip": want passthrough, simple, api or external_provider`))
	})
})
