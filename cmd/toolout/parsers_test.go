package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout chunk", func() {
	It("prints a balanced plan", func() {
		doc := strings.Repeat("ts=1 host=web-0 level=INFO msg=\"all good here\"\n", 300)
		stdout := succeeds(doc, "chunk", "--budget", "1000")
		var plan struct {
			Tokens, Budget, Overlap int
			Chunks                  []struct{ Index, Start, End, Tokens int }
		}
		Expect(json.Unmarshal([]byte(stdout), &plan)).To(Succeed())
		Expect(plan.Budget).To(Equal(1000))
		Expect(plan.Overlap).To(Equal(100))
		Expect(len(plan.Chunks)).To(BeNumerically(">=", 2))
		Expect(plan.Chunks[len(plan.Chunks)-1].End).To(Equal(len(doc)))
	})

	It("prints an empty list of chunks for empty input, not null", func() {
		stdout := succeeds("", "chunk", "--budget", "10")
		Expect(stdout).To(Equal(`{"tokens":0,"budget":10,"overlap":1,"target":0,"chunks":[]}` + "\n"))
	})

	DescribeTable("rejects bad input in one line",
		func(stdin string, args []string, want string) {
			code, _, stderr := invoke(stdin, append([]string{"chunk"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stderr).To(Equal(want))
		},
		Entry("no budget", "x", []string{}, "toolout chunk: --budget is required (a positive number of tokens)\n"),
		Entry("overlap of half", "x", []string{"--budget", "10", "--overlap", "50"}, "toolout chunk: <stdin>: chunk: overlap 0.5: overlap must be at least 0 and below 0.5\n"),
		Entry("piece over budget", strings.Repeat("a", 300), []string{"--budget", "3"}, "toolout chunk: <stdin>: chunk: piece at bytes 0-300 has 38 tokens, budget 3: a piece is larger than the budget\n"),
	)
})

var _ = Describe("toolout stats", func() {
	It("prints the stats of stdin", func() {
		code, stdout, _ := invoke("Tool output is too large.\nsecond line", "stats")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"bytes":37,"lines":2,"tokens":8,"avg_line_bytes":19}` + "\n"))
	})

	It("counts a 1 MiB file", func() {
		f := filepath.Join(GinkgoT().TempDir(), "big.log")
		line := "2026-11-03T10:00:01Z host=web-0 level=ERROR msg=\"upstream timeout\"\n"
		body := strings.Repeat(line, (1<<20)/len(line))
		Expect(os.WriteFile(f, []byte(body), 0o644)).To(Succeed())
		code, stdout, _ := invoke("", "stats", f, "--encoding", "o200k_base")
		Expect(code).To(Equal(0))
		lines := strings.Count(body, "\n") + 1
		Expect(stdout).To(HavePrefix(`{"bytes":` + itoa(len(body)) + `,"lines":` + itoa(lines) + `,"tokens":`))
	})

	It("rejects an unknown encoding", func() {
		code, _, stderr := invoke("", "stats", "--encoding", "p50k")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout stats: --encoding: unknown encoding \"p50k\" (known: cl100k_base, o200k_base, o200k_harmony)\n"))
	})
})

func itoa(n int) string { return strconv.Itoa(n) }

var _ = Describe("toolout truncate", func() {
	It("keeps head and tail around the marker", func() {
		code, stdout, _ := invoke("abcdefghij", "truncate", "--max-bytes", "4")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"text":"ab\n[... 6 bytes truncated ...]\nij","bytes":10,"truncated_bytes":6}` + "\n"))
	})

	It("requires --max-bytes", func() {
		code, _, stderr := invoke("x", "truncate")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout truncate: --max-bytes is required (0 or more)\n"))
	})
})

var _ = Describe("toolout leaked", func() {
	It("extracts the issue's example with sequential ids", func() {
		stdout := succeeds("Checking.\n<tools>{\"name\":\"a\",\"arguments\":{\"s\":\"</tools>\"}}</tools>", "leaked", "--ids", "seq")
		Expect(stdout).To(Equal(`{"content":"Checking.","tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"a","arguments":{"s":"</tools>"}}],"patterns":["<tools>"],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("gives back input without a wrapper byte for byte", func() {
		code, stdout, _ := invoke("\n  plain text, no calls  \n", "leaked")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"\n  plain text, no calls  \n","tool_calls":[],"patterns":[],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("keeps an opening tag in prose byte for byte", func() {
		code, stdout, _ := invoke("Use the <tools> syntax to call tools.", "leaked")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"Use the <tools> syntax to call tools.","tool_calls":[],"patterns":[],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("recovers Qwen3-Coder calls whose <tool_call> opener was stripped", func() {
		code, stdout, _ := invoke("<function=logs__query>\n<parameter=limit>\n50\n</parameter>\n</function>\n</tool_call>", "leaked", "--ids", "seq")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":null,"tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"logs__query","arguments":{"limit":50}}],"patterns":["<function=>"],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("reads a file and scans fences on request", func() {
		code, stdout, _ := invoke("", "leaked", "--scan-fences", "--ids=seq", "../../scenarios/leaked/trace-tools.txt")
		Expect(code).To(Equal(0))
		Expect(stdout).To(ContainSubstring(`"name":"bigquery__execute_sql"`))
		Expect(stdout).To(HavePrefix(`{"content":null,`))
	})

	It("recovers pythonic calls with --pythonic only", func() {
		in := "Checking.\n[get_weather(city='Paris', days=-1)]"
		code, stdout, _ := invoke(in, "leaked", "--ids", "seq")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"Checking.\n[get_weather(city='Paris', days=-1)]","tool_calls":[],"patterns":[],"dropped":[],"repairs":[]}` + "\n"))
		code, stdout, _ = invoke(in, "leaked", "--pythonic", "--ids", "seq")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"content":"Checking.","tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"get_weather","arguments":{"city":"Paris","days":-1}}],"patterns":["[pythonic]"],"dropped":[],"repairs":[]}` + "\n"))
	})

	It("rejects a bad --ids", func() {
		code, _, stderr := invoke("", "leaked", "--ids", "counter")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout leaked: --ids \"counter\": want uuid or seq\n"))
	})

	Describe("--tools FILE", func() {
		writeTools := func(data string) string {
			f := filepath.Join(GinkgoT().TempDir(), "tools.json")
			Expect(os.WriteFile(f, []byte(data), 0o600)).To(Succeed())
			return f
		}
		const qwen = "<tool_call>\n<function=f>\n<parameter=zip>\n007\n</parameter>\n<parameter=n>\n7\n</parameter>\n<parameter=o>\n{\"a\": 1}\n</parameter>\n<parameter=x>\n42\n</parameter>\n</function>\n</tool_call>"

		It("types XML parameters by the declared schemas of a request body's tools", func() {
			f := writeTools(`{"model":"m","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"zip":{"type":"string"},"n":{"type":"integer"},"o":{"type":"object"},"x":{"type":"string"}}}}}]}`)
			stdout := succeeds(qwen, "leaked", "--ids", "seq", "--tools", f)
			Expect(stdout).To(ContainSubstring(`"arguments":{"zip":"007","n":7,"o":{"a":1},"x":"42"}`))
			stdout = succeeds(qwen, "leaked", "--ids", "seq")
			Expect(stdout).To(ContainSubstring(`"arguments":{"zip":"007","n":7,"o":{"a":1},"x":42}`))
		})

		It("reads an Anthropic tool list and lets a GLM call without arguments through", func() {
			f := writeTools(`[{"name":"get_time","input_schema":{"type":"object","properties":{}}}]`)
			stdout := succeeds("<tool_call>get_time</tool_call>", "leaked", "--ids", "seq", "--tools", f)
			Expect(stdout).To(Equal(`{"content":null,"tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"get_time","arguments":{}}],"patterns":["<tool_call>"],"dropped":[],"repairs":[]}` + "\n"))
			code, stdout, _ := invoke("<tool_call>get_time</tool_call>", "leaked", "--ids", "seq")
			Expect(code).To(Equal(0))
			// Without the list it is no call, and a closed wrapper without a
			// call is removed and listed.
			Expect(stdout).To(HavePrefix(`{"content":null,"tool_calls":[],"patterns":["<tool_call>"],"dropped":[{"pattern":"<tool_call>","offset":0,"raw":"<tool_call>get_time</tool_call>"`))
		})

		DescribeTable("a bad file fails with one line naming it and the byte, exit 2",
			func(data, want string) {
				f := writeTools(data)
				code, stdout, stderr := invoke("<tool_call>get_time</tool_call>", "leaked", "--tools", f)
				Expect(code).To(Equal(2))
				Expect(stdout).To(BeEmpty())
				Expect(stderr).To(Equal("toolout leaked: --tools " + f + ": " + want + "\n"))
			},
			Entry("bad JSON", `[{"name":"a",}]`, "byte 14: invalid JSON: invalid character '}' looking for beginning of object key string"),
			Entry("empty", ``, "byte 0: invalid JSON: unexpected end of JSON input"),
			Entry("not a tool list", `{"name":"a"}`, `byte 0: want a JSON array of tools or an object with a "tools" array: the object has no "tools"`),
		)

		It("names a missing file", func() {
			code, _, stderr := invoke("x", "leaked", "--tools", "no-such-tools.json")
			Expect(code).To(Equal(2))
			Expect(stderr).To(Equal("toolout leaked: --tools no-such-tools.json: no such file or directory\n"))
		})

		It("refuses standard input, which holds the text", func() {
			code, _, stderr := invoke("x", "leaked", "--tools", "-")
			Expect(code).To(Equal(2))
			Expect(stderr).To(Equal("toolout leaked: --tools -: want a file (standard input holds the text)\n"))
		})
	})
})

var _ = Describe("toolout schema", func() {
	const orders = "../../scenarios/schema/data/shop-orders.json"

	It("summarizes into output_fields and has_hidden_fields", func() {
		stdout := succeeds("", "schema", "summarize", orders, "--max-fields", "5")
		var s struct {
			OutputFields    []string `json:"output_fields"`
			HasHiddenFields bool     `json:"has_hidden_fields"`
		}
		Expect(json.Unmarshal([]byte(stdout), &s)).To(Succeed())
		Expect(s.OutputFields).To(HaveLen(5))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("inspects a field path", func() {
		code, stdout, _ := invoke("", "schema", "inspect", "--tool-id", "shopify.get_orders", "--field-path", "orders[].customer.default_address", orders)
		Expect(code).To(Equal(0))
		var in map[string]any
		Expect(json.Unmarshal([]byte(stdout), &in)).To(Succeed())
		Expect(in["tool_id"]).To(Equal("shopify.get_orders"))
		Expect(in["node_type"]).To(Equal("object"))
		Expect(in["total_child_fields"]).To(BeEquivalentTo(15))
		Expect(in).To(HaveKey("flattened_fields"))
		Expect(in).To(HaveKey("truncated"))
	})

	It("summarizes a tiny schema that panicked before: nothing hidden, so leaf lines only (b shows through b.id)", func() {
		stdout := succeeds(`{"type":"object","properties":{"a":{"type":"array"},"b":{"properties":{"id":{"type":"string"}}}}}`, "schema", "summarize")
		Expect(stdout).To(Equal(`{"output_fields":["a[]: any","b.id: string"],"has_hidden_fields":false}` + "\n"))
	})

	DescribeTable("rejects bad input in one line",
		func(stdin string, args []string, want string) {
			code, stdout, stderr := invoke(stdin, append([]string{"schema"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stdout).To(BeEmpty())
			Expect(stderr).To(Equal(want))
		},
		Entry("no subcommand", "", []string{}, "toolout schema: want a subcommand: summarize or inspect\n"),
		Entry("invalid JSON", `{"type":`, []string{"summarize"}, "toolout schema summarize: <stdin>: schema: invalid JSON at byte 8: unexpected end of input\n"),
		Entry("3,000,000 [", strings.Repeat("[", 3_000_000), []string{"summarize"}, "toolout schema summarize: <stdin>: schema: nesting deeper than 10000 levels at byte 10000\n"),
		Entry("no tool id", "{}", []string{"inspect"}, "toolout schema inspect: --tool-id is required; --max-depth and --max-fields must be at least 1\n"),
		Entry("unknown field", `{"type":"object","properties":{"a":{"type":"string"}}}`, []string{"inspect", "--tool-id", "t", "--field-path", "b"},
			"toolout schema inspect: <stdin>: tool \"t\": field_path \"b\": segment \"b\": no field \"b\" in the root (fields: a)\n"),
		Entry("path through a leaf", `{"type":"object","properties":{"a":{"type":"string"}}}`, []string{"inspect", "--tool-id", "t", "--field-path", "a.x"},
			"toolout schema inspect: <stdin>: tool \"t\": field_path \"a.x\": segment \"x\": \"a\" is string, which has no fields\n"),
		Entry("empty schema", `{}`, []string{"inspect", "--tool-id", "t"},
			"toolout schema inspect: <stdin>: tool \"t\": the output schema is empty (any): it declares no type and no fields\n"),
		Entry("no output schema", "", []string{"inspect", "--tool-id", "t"},
			"toolout schema inspect: <stdin>: tool \"t\": the tool has no output schema\n"),
		Entry("deep nesting", strings.Repeat("[", 3_000_000), []string{"inspect", "--tool-id", "t"},
			"toolout schema inspect: <stdin>: tool \"t\": output schema: nesting deeper than 10000 levels at byte 10000\n"),
	)
})
