package extract_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// modeEnum is the mode enum of a tool's schema.
func modeEnum(t core.Tool) []any {
	var schema map[string]any
	Expect(json.Unmarshal(t.InputSchema, &schema)).To(Succeed())
	return schema["properties"].(map[string]any)["mode"].(map[string]any)["enum"].([]any)
}

var _ = Describe("json-aware and head-tail", func() {
	Describe("the offered schema", func() {
		It("is the spec's exact schema unless the operator offers more", func() {
			Expect(extract.ToolFor(extract.DefaultConfig())).To(Equal(extract.Tool()))
			Expect(string(extract.ToolFor(extract.DefaultConfig()).InputSchema)).To(Equal(extract.Schema))
		})

		It("adds the offered modes to the enum and the description, in one order whatever the config's", func() {
			c := extract.DefaultConfig()
			c.OfferModes = []string{"head-tail", "json-aware"}
			t := extract.ToolFor(c)
			Expect(json.Valid(t.InputSchema)).To(BeTrue())
			Expect(modeEnum(t)).To(Equal([]any{"auto", "full-chunked", "read-grep", "truncate", "json-aware", "head-tail"}))
			Expect(string(t.InputSchema)).To(ContainSubstring(`truncates in the middle; json-aware=JSON output shortened into valid JSON`))
			Expect(string(t.InputSchema)).To(ContainSubstring(`; head-tail=keeps the head and the tail lines`))
			c.OfferModes = []string{"json-aware", "head-tail"}
			Expect(extract.ToolFor(c)).To(Equal(t))
			c.OfferModes = []string{"head-tail"}
			Expect(modeEnum(extract.ToolFor(c))).To(Equal([]any{"auto", "full-chunked", "read-grep", "truncate", "head-tail"}))
		})
	})

	DescribeTable("Validate refuses a bad choice, naming the field",
		func(change func(c *extract.Config), want string) {
			c := extract.DefaultConfig()
			change(&c)
			err := c.Validate()
			Expect(err).To(MatchError(want))
			var ce *extract.ChoiceError
			var ke *extract.KnobError
			Expect(errors.As(err, &ce) || errors.As(err, &ke)).To(BeTrue())
		},
		Entry("unknown extra mode", func(c *extract.Config) { c.OfferModes = []string{"head-tail", "summarize"} },
			`offer_modes.1 "summarize": want json-aware, head-tail or query`),
		Entry("a spec mode is not an extra one", func(c *extract.Config) { c.OfferModes = []string{"truncate"} },
			`offer_modes.0 "truncate": want json-aware, head-tail or query`),
		Entry("listed twice", func(c *extract.Config) { c.OfferModes = []string{"json-aware", "json-aware"} },
			`offer_modes.1 "json-aware": listed twice`),
		Entry("unknown cut", func(c *extract.Config) { c.TruncateWith = "chars" },
			`truncate_with "chars": want bytes, head-tail or json-aware`),
		Entry("empty cut", func(c *extract.Config) { c.TruncateWith = "" },
			`truncate_with "": want bytes, head-tail or json-aware`),
		Entry("head over 100", func(c *extract.Config) { c.HeadPercent = 101 }, `head_percent 101: must be 0 to 100`),
		Entry("head below 0", func(c *extract.Config) { c.HeadPercent = -1 }, `head_percent -1: must be 0 to 100`),
	)

	It("defaults to the spec: nothing offered beyond it, truncate cutting bytes", func() {
		c := extract.DefaultConfig()
		Expect(c.OfferModes).To(BeEmpty())
		Expect(c.TruncateWith).To(Equal("bytes"))
		Expect(c.HeadPercent).To(Equal(20))
		Expect(c.Validate()).To(Succeed())
	})

	Describe("Extract", func() {
		var st *store.Store
		var logs []string
		var calls int
		logText := func() string {
			var b strings.Builder
			for i := range 200 {
				switch i {
				case 100:
					b.WriteString("level=ERROR msg=\"payment failed\" err=\"java.lang.IllegalStateException: ledger closed\"\n")
				case 101:
					b.WriteString("\tat com.example.Ledger.post(Ledger.java:42)\n")
				default:
					fmt.Fprintf(&b, "level=INFO msg=\"ok\" i=%03d\n", i)
				}
			}
			return b.String()
		}()
		put := func(output string) string {
			m, err := st.Put("logs__query", `{}`, output, store.Measure(output, tokens.Estimator{}))
			Expect(err).NotTo(HaveOccurred())
			return m.Handle
		}
		newEx := func(change func(c *extract.Config)) *extract.Extractor {
			c := extract.DefaultConfig()
			c.ContextWindow = 600 // too small for one chunk: auto picks read-grep, whose LLM fails
			change(&c)
			ex, err := extract.New(extract.Options{Store: st, Tokenizer: tokens.Estimator{}, Nonce: "n1", TruncateBytes: 900, Config: c,
				LLM: core.LLMFunc(func(context.Context, core.Request) (core.Response, error) {
					calls++
					return core.Response{}, errors.New("the model is down")
				}),
				Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
			Expect(err).NotTo(HaveOccurred())
			return ex
		}
		call := func(ex *extract.Extractor, handle, mode string) extract.Outcome {
			args, _ := json.Marshal(map[string]string{"handle": handle, "extract": "why did payments fail", "mode": mode})
			return ex.Extract(context.Background(), args)
		}

		BeforeEach(func() {
			var err error
			st, err = store.New(store.Options{Base: GinkgoT().TempDir(), SessionID: "s", Sources: core.Sources{}})
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(st.Close)
			logs, calls = nil, 0
		})

		It("answers an offered head-tail with the error lines of the middle, in the success format, without a model", func() {
			ex := newEx(func(c *extract.Config) { c.OfferModes = []string{"head-tail"} })
			h := put(logText)
			o := call(ex, h, "head-tail")
			Expect(o.Requested).To(Equal("head-tail"))
			Expect(o.Route.Reason).To(Equal("requested"))
			Expect(o.Strategy).To(Equal("head-tail"))
			Expect(o.Text).To(HavePrefix("ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE " + h + ", STRATEGY:head-tail:\n\nlevel=INFO msg=\"ok\" i=000\n"))
			Expect(o.Text).To(ContainSubstring("java.lang.IllegalStateException: ledger closed\"\n\tat com.example.Ledger.post(Ledger.java:42)\n"))
			Expect(o.Text).To(HaveSuffix("i=199\n"))
			Expect(len(o.Text)).To(BeNumerically("<=", len(extract.Success("logs__query", h, "head-tail", ""))+900))
			Expect(calls).To(BeZero())
		})

		It("treats a mode the schema does not offer as auto, and logs it", func() {
			ex := newEx(func(*extract.Config) {})
			o := call(ex, put(logText), "head-tail")
			Expect(o.Requested).To(Equal("auto"))
			Expect(o.Route.Mode).To(Equal("read-grep"))
			Expect(logs).To(ContainElement(`tool_output: mode "head-tail" is not offered (offer_modes), using auto`))
		})

		It("never routes auto to them, even offered and on JSON", func() {
			ex := newEx(func(c *extract.Config) { c.OfferModes = []string{"json-aware", "head-tail"} })
			doc := "[" + strings.Repeat(`{"id":1,"status":"ok"},`, 300) + `{"id":2}]`
			for _, out := range []string{logText, doc} {
				o := call(ex, put(out), "auto")
				Expect(o.Route.Mode).To(BeElementOf("full-chunked", "read-grep"))
			}
		})

		It("falls back to truncate with the exact warning when json-aware gets output that is not JSON", func() {
			ex := newEx(func(c *extract.Config) { c.OfferModes = []string{"json-aware"} })
			h := put(logText)
			o := call(ex, h, "json-aware")
			Expect(o.Route.Mode).To(Equal("json-aware"))
			Expect(o.Strategy).To(Equal("truncate"))
			Expect(o.Fallback).To(Equal("json-aware failed"))
			Expect(o.Failure).To(ContainSubstring("invalid JSON at 1:1"))
			Expect(o.Cut).To(Equal("bytes"))
			Expect(o.Text).To(HavePrefix("ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE " + h + ", STRATEGY:truncate:\n\n" +
				"WARNING: tool_output fallback to truncate (json-aware failed).\nlevel=INFO"))
			Expect(calls).To(BeZero())
		})

		It("cuts the fallback with head-tail when configured, under truncate's name and warning", func() {
			ex := newEx(func(c *extract.Config) { c.TruncateWith = "head-tail" })
			h := put(logText)
			o := call(ex, h, "")
			Expect(o.Route.Mode).To(Equal("read-grep"))
			Expect(o.Fallback).To(Equal("read-grep failed"))
			Expect(o.Cut).To(Equal("head-tail"))
			Expect(o.Text).To(HavePrefix("ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE " + h + ", STRATEGY:truncate:\n\n" +
				"WARNING: tool_output fallback to truncate (read-grep failed).\nlevel=INFO"))
			Expect(o.Text).To(ContainSubstring("ledger closed"))
			Expect(calls).To(Equal(1))
		})

		It("cuts an explicit truncate with json-aware when the output is JSON, and by bytes when it is not", func() {
			ex := newEx(func(c *extract.Config) { c.TruncateWith = "json-aware" })
			doc := `{"rows":[` + strings.Repeat(`{"id":1,"status":"ok"},`, 300) + `{"id":2,"status":"error"}]}`
			o := call(ex, put(doc), "truncate")
			Expect(o.Strategy).To(Equal("truncate"))
			Expect(o.Cut).To(Equal("json-aware"))
			_, body, _ := strings.Cut(o.Text, "\n\n")
			Expect(json.Valid([]byte(body))).To(BeTrue(), body)
			Expect(len(body)).To(BeNumerically("<=", 900))
			Expect(body).To(ContainSubstring(`"status":"error"`))

			o = call(ex, put(logText), "truncate")
			Expect(o.Cut).To(Equal("bytes"))
			Expect(o.Text).To(ContainSubstring(" bytes truncated ...]\n"))
			Expect(logs).To(ContainElement(ContainSubstring("truncate_with json-aware: jsonaware: invalid JSON at 1:1")))
		})

		It("never answers json-aware over the budget: JSON whose every-key form is too large falls back to truncate, saying why", func() {
			var b strings.Builder
			b.WriteString("{")
			for i := range 3000 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"key%04d":"v%05d"`, i, i)
			}
			b.WriteString("}")
			for _, c := range []struct{ mode, with string }{{"json-aware", "bytes"}, {"truncate", "json-aware"}} {
				ex := newEx(func(x *extract.Config) { x.OfferModes = []string{"json-aware"}; x.TruncateWith = c.with })
				h := put(b.String())
				o := call(ex, h, c.mode)
				Expect(o.Strategy).To(Equal("truncate"), c.mode)
				Expect(o.Cut).To(Equal("bytes"))
				_, body, _ := strings.Cut(o.Text, "\n\n")
				body = strings.TrimPrefix(body, extract.FallbackWarning("json-aware failed")+"\n")
				Expect(len(body)).To(BeNumerically("<=", 900), c.mode)
			}
			o := call(newEx(func(x *extract.Config) { x.OfferModes = []string{"json-aware"} }), put(b.String()), "json-aware")
			Expect(o.Fallback).To(Equal("json-aware failed"))
			Expect(o.Failure).To(Equal("extract: json-aware: even the smallest form (every key kept) is 57001 bytes, over the budget of 900"))
			Expect(logs).To(ContainElement(ContainSubstring("truncate_with json-aware: extract: json-aware: even the smallest form")))
		})

		It("answers truncate within the budget, its marker included, in each way it cuts", func() {
			doc := `{"rows":[` + strings.Repeat(`{"id":1,"status":"ok"},`, 300) + `{"id":2,"status":"error"}]}`
			for _, with := range []string{"bytes", "head-tail", "json-aware"} {
				ex := newEx(func(c *extract.Config) { c.TruncateWith = with })
				for _, out := range []string{logText, doc} {
					o := call(ex, put(out), "truncate")
					_, body, _ := strings.Cut(o.Text, "\n\n")
					Expect(len(body)).To(BeNumerically("<=", 900), with)
					if with != "json-aware" { // json-aware fits by steps of its ladder, not byte by byte
						Expect(len(body)).To(BeNumerically(">=", 850), with)
					}
				}
			}
		})

		It("keeps the byte cut by default, its marker within the budget", func() {
			ex := newEx(func(*extract.Config) {})
			o := call(ex, put(logText), "truncate")
			want, _ := extract.TruncateWithin(logText, 900)
			Expect(o.Text).To(HaveSuffix("STRATEGY:truncate:\n\n" + want))
			Expect(o.Cut).To(Equal("bytes"))
		})
	})
})
