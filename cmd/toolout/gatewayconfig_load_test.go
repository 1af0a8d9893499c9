package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/proxy"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the gateway config file", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	// load writes text as gw.yaml and loads it; errors name the file as
	// given, here shortened to its base name.
	load := func(text string) (FileConfig, error) {
		GinkgoHelper()
		file := filepath.Join(dir, "gw.yaml")
		Expect(os.WriteFile(file, []byte(text), 0o644)).To(Succeed())
		fc, err := loadGatewayConfig(file)
		if err != nil {
			Expect(err.Error()).To(HavePrefix(file))
			err = errors.New(strings.Replace(err.Error(), file, "gw.yaml", 1))
		}
		return fc, err
	}
	const empty = "empty config: it sets nothing, and would start a gateway that compresses nothing; " +
		"set pipes.tool_output (see cmd/toolout/testdata/gateway.yaml), with enabled: false for a passthrough on purpose"

	DescribeTable("is rejected at load time, at the line:col of the problem",
		func(text, want string) {
			_, err := load(text)
			Expect(err).To(MatchError(want))
		},
		Entry("an empty file", "", "gw.yaml:1:1: "+empty),
		Entry("only comments", "# nothing yet\n\n", "gw.yaml:1:1: "+empty),
		Entry("an empty document", "---\n", "gw.yaml:1:1: "+empty),
		Entry("an empty mapping", "\n{}\n", "gw.yaml:1:1: "+empty),
		Entry("no pipes.tool_output", "store: {backend: memory}\n",
			"gw.yaml:1:1: pipes.tool_output is missing: the gateway would compress nothing; set it, with enabled: false for a passthrough on purpose"),
		Entry("an unknown key, nested", "pipes:\n  tool_output:\n    enabled: true\n    stratgy: simple\n",
			`gw.yaml:4:5: unknown field "stratgy" in pipes.tool_output (did you mean "strategy"?)`),
		Entry("an unknown key at the top", "pipes: {tool_output: {enabled: true}}\nlimit: {}\n",
			`gw.yaml:2:1: unknown field "limit" (did you mean "limits"?)`),
		Entry("an unknown key with no near name", "pipes: {tool_output: {enabled: true}}\nserver: {port: 80}\n",
			`gw.yaml:2:10: unknown field "port" in server (known: read_header_timeout, read_timeout, idle_timeout, memory_limit)`),
		Entry("an unknown key under a provider", "providers:\n  openai: {base_url: x, modle: y}\npipes: {tool_output: {enabled: true}}\n",
			`gw.yaml:2:25: unknown field "modle" in providers.openai (did you mean "model"?)`),
		Entry("a wrong type", "pipes:\n  tool_output:\n    min_bytes: abc\n",
			`gw.yaml:3:16: pipes.tool_output.min_bytes: want an integer, got "abc"`),
		Entry("a bad duration", "pipes:\n  tool_output: {enabled: true, original_ttl: 5 minutes}\n",
			`gw.yaml:2:46: pipes.tool_output.original_ttl: duration "5 minutes": want e.g. 30s or 5m`),
		Entry("a negative duration", "pipes: {tool_output: {enabled: true}}\nserver: {idle_timeout: -1s}\n",
			`gw.yaml:2:24: server.idle_timeout: duration "-1s": want 0 (the default) or more`),
		Entry("a core knob of the wrong type (decoded inline from gateway.Config)", "pipes:\n  tool_output: {enabled: true, breaker_cooloff: 30}\n",
			`gw.yaml:2:49: pipes.tool_output.breaker_cooloff: duration "30": want e.g. 30s or 5m`),
		Entry("a pipe key that lives under limits", "pipes:\n  tool_output: {enabled: true, max_results: 3}\n",
			`gw.yaml:2:32: unknown field "max_results" in pipes.tool_output (known: enabled, strategy, simple_words, api, `+
				`fallback_strategy, min_bytes, max_bytes, skip_tools, max_concurrent, rate_limit, breaker_failures, breaker_cooloff, `+
				`compress_timeout, original_ttl, compressed_ttl, max_entries, enable_expand_context, provider, target_ratio, include_expand_hint)`),
		Entry("a wrong type in a list", "pipes:\n  tool_output:\n    skip_tools: [edit, {a: 1}]\n",
			"gw.yaml:3:24: pipes.tool_output.skip_tools[1]: want a string, got a mapping"),
		Entry("a section that is not a mapping", "pipes: [tool_output]\n", "gw.yaml:1:8: pipes: want a mapping, got a list"),
		Entry("a duplicate key", "pipes:\n  tool_output:\n    strategy: simple\n    strategy: api\n",
			`gw.yaml:4:5: duplicate key "strategy" in pipes.tool_output (first at line 3)`),
		Entry("a byte that is not UTF-8", "pipes:\n  tool_output:\n    strategy: \"si\xffmple\"\n",
			"gw.yaml:3:18: invalid UTF-8 (byte 0xff): a config is UTF-8 text"),
		Entry("a control character after CR line breaks", "pipes:\r  tool_output: {enabled: true}\r\n# \x7f\r",
			"gw.yaml:3:3: control character U+007F is not allowed in YAML"),
		Entry("a control character", "pipes:\n  tool_output: {enabled: true}\n# bell \a\n",
			"gw.yaml:3:8: control character U+0007 is not allowed in YAML"),
		Entry("a syntax error, where the parser stopped", "pipes:\n  tool_output: [\n", "gw.yaml:2:16: did not find expected node content"),
		Entry("a syntax error on line 2 that yaml.v3 names as line 1", "pipes:\n  tool_output: {enabled: true\nstore: {}\n",
			"gw.yaml:2:16: did not find expected ',' or '}'"),
		Entry("an unquoted ${VAR} in flow style", "providers:\n  openai: {base_url: x, api_key: ${KEY}, model: m}\n",
			`gw.yaml:2:34: did not find expected ',' or '}' (a ${VAR} inside {…} or […] must be quoted: "${VAR}")`),
		Entry("several problems", "pipes:\n  tool_output: {enabled: 3, strategy: [], nope: 1}\n",
			`gw.yaml:2:26: pipes.tool_output.enabled: want true or false, got "3" (and 2 more problems)`),
		Entry("a second document", "pipes: {tool_output: {enabled: true}}\n---\nstore: {}\n",
			"gw.yaml:3:1: a config holds one YAML document; a second one starts here"),
		Entry("not a mapping", "- pipes\n", "gw.yaml:1:1: want a mapping of settings, got a list"),
		Entry("a merge key", "pipes:\n  tool_output:\n    <<: {enabled: true}\n",
			`gw.yaml:3:5: merge keys ("<<") are not supported in a config; write the keys out`),
	)

	It("refuses a file over 1 MiB", func() {
		_, err := load("pipes: {tool_output: {enabled: true}}\n#" + strings.Repeat("x", 1<<20) + "\n")
		Expect(err).To(MatchError("gw.yaml: the file is over 1048576 bytes; a config is small"))
	})

	It("expands ${VAR} inside values only, so that a variable neither moves positions nor adds keys", func() {
		GinkgoT().Setenv("TOOLOUT_SPEC_KEY", "sk-x\nstrategy: api")
		GinkgoT().Setenv("TOOLOUT_SPEC_MIN", "100")
		fc, err := load("pipes:\n  tool_output:\n    enabled: true\n    strategy: simple\n    min_bytes: ${TOOLOUT_SPEC_MIN}\n" +
			"    api: {api_key: \"${TOOLOUT_SPEC_KEY}\", timeout: 5s}\n")
		Expect(err).NotTo(HaveOccurred())
		t := fc.Pipes.ToolOutput
		Expect(t.Strategy).To(Equal("simple"))
		Expect(t.MinBytes).To(Equal(100))
		Expect(t.API.APIKey).To(Equal("sk-x\nstrategy: api"))
		Expect(time.Duration(t.API.Timeout)).To(Equal(5 * time.Second))
		_, err = load("pipes:\n  tool_output:\n    api:\n      api_key: ${TOOLOUT_SPEC_KEY}\n    nope: 1\n")
		Expect(err).To(MatchError(HavePrefix(`gw.yaml:5:5: unknown field "nope" in pipes.tool_output`)))
	})

	It("decodes core's knobs inline, under the file's names, into core's own types", func() {
		fc, err := load("pipes:\n  tool_output:\n    enabled: true\n    strategy: simple\n    simple_words: 7\n    rate_limit: 2.5\n" +
			"    breaker_cooloff: 45s\n    compress_timeout: 2s\n    original_ttl: 5m\n    max_entries: 9\n" +
			"limits: {max_concurrent_requests: 3, upstream_timeout: 1m, client_write_timeout: 5s, max_results: 4, max_work_bytes: 1000}\n" +
			"store: {max_bytes: 268435456}\nserver: {read_timeout: 7s}\n")
		Expect(err).NotTo(HaveOccurred())
		t := fc.Pipes.ToolOutput
		Expect(t.CompressorConfig).To(Equal(gateway.CompressorConfig{Strategy: "simple", SimpleWords: 7}))
		Expect(t.Config).To(Equal(gateway.Config{RateLimit: 2.5, BreakerCooloff: 45 * time.Second, CompressTimeout: 2 * time.Second}))
		Expect(fc.Limits.Limits).To(Equal(proxy.Limits{MaxConcurrent: 3, UpstreamTimeout: time.Minute, ClientWriteTimeout: 5 * time.Second}))
		Expect(fc.StoreOptions(core.Sources{})).To(Equal(gateway.StoreOptions{OriginalTTL: 5 * time.Minute,
			CompressedTTL: gateway.DefaultCompressedTTL, MaxEntries: 9, MaxBytes: 268435456}))
		Expect(fc.httpServer(nil).ReadTimeout).To(Equal(7 * time.Second))
		Expect(fc.httpServer(nil).IdleTimeout).To(Equal(defaultIdleTimeout))
		g, err := fc.Build("anthropic", memstore.New(fc.StoreOptions(core.Sources{})), core.Sources{}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(g.Wire.Name()).To(Equal("anthropic"))
	})

	It("loads the example configs the README points to", func() {
		for _, file := range []string{"testdata/gateway.yaml", "testdata/gateway-redis.yaml"} {
			fc, err := loadGatewayConfig(file)
			Expect(err).NotTo(HaveOccurred(), file)
			Expect(fc.Pipes.ToolOutput.Enabled).To(BeTrue(), file)
			Expect(fc.Pipes.ToolOutput.SkipTools).To(Equal([]string{"edit", "write"}), file)
		}
	})

	It("stops `gateway serve` on an empty config with exit 2 and one line, instead of starting a passthrough", func() {
		cfg := filepath.Join(dir, "empty.yaml")
		Expect(os.WriteFile(cfg, nil, 0o644)).To(Succeed())
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // the old code served until stopped
		defer cancel()
		var out, errb bytes.Buffer
		code := run(ctx, []string{"gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--config", cfg},
			strings.NewReader(""), &out, &errb)
		stdout, stderr := out.String(), errb.String()
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout gateway serve: --config: " + cfg + ":1:1: " + empty + "\n"))
	})
})
