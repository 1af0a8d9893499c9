package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// endless is standard input that never ends (like /dev/zero): it records
// how many bytes it served.
type endless struct{ served int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.served += len(p)
	return len(p), nil
}

// bounded is one subcommand that reads FILE or stdin: its arguments, the
// prefix of its messages, and an input it accepts (padded to the limit).
type bounded struct {
	args   []string
	prefix string
	valid  string
}

// limited lists every subcommand that reads FILE or stdin.
var limited = []bounded{
	{[]string{"stats"}, "toolout stats", "some text\n"},
	{[]string{"chunk", "--budget", "1000"}, "toolout chunk", "some text\n"},
	{[]string{"extract", "plan", "--extract", "errors"}, "toolout extract plan", "some text\n"},
	{[]string{"final-report", "--nonce", "n1"}, "toolout final-report", "<ai-agent-n1-FINAL>done</ai-agent-n1-FINAL>"},
	{[]string{"leaked", "--ids", "seq"}, "toolout leaked", "some text\n"},
	{[]string{"schema", "summarize"}, "toolout schema summarize", `{"type":"object","properties":{"a":{"type":"string"}}}`},
	{[]string{"schema", "inspect", "--tool-id", "t"}, "toolout schema inspect", `{"type":"object","properties":{"a":{"type":"string"}}}`},
	{[]string{"truncate", "--max-bytes", "10"}, "toolout truncate", "some text\n"},
	{[]string{"gateway", "compress"}, "toolout gateway compress", "some text\n"},
	{[]string{"gateway", "shadow-id"}, "toolout gateway shadow-id", "some text\n"},
}

// limitEntries makes one Entry per subcommand and source (false: stdin,
// true: a file).
func limitEntries(sources ...bool) []TableEntry {
	var out []TableEntry
	for _, b := range limited {
		name := b.args[0]
		if len(b.args) > 1 && !strings.HasPrefix(b.args[1], "-") {
			name += " " + b.args[1]
		}
		for _, file := range sources {
			where := " on stdin"
			if file {
				where = " on a file"
			}
			out = append(out, Entry(name+where, b, file))
		}
	}
	return out
}

// pad fills valid up to n bytes with trailing white space (which every
// accepted input above may end with).
func pad(valid string, n int) string { return valid + strings.Repeat(" ", n-len(valid)) }

var _ = Describe("bounded input", func() {
	const limit = 1024

	DescribeTable("over --max-input exits 2 with one line naming the input and the limit",
		func(b bounded, file bool) {
			args := append(append([]string{}, b.args...), "--max-input", "1KiB")
			stdin, name := pad(b.valid, limit+1), "<stdin>"
			if file {
				name = filepath.Join(GinkgoT().TempDir(), "big.txt")
				Expect(os.WriteFile(name, []byte(stdin), 0o644)).To(Succeed())
				args, stdin = append(args, name), ""
			}
			code, stdout, stderr := invoke(stdin, args...)
			Expect(stderr).To(Equal(b.prefix + ": " + name + ": input exceeds the limit of 1KiB (1024 bytes); raise it with --max-input\n"))
			Expect(stdout).To(BeEmpty())
			Expect(code).To(Equal(2))
		},
		limitEntries(false, true),
	)

	DescribeTable("accepts an input of exactly the limit",
		func(b bounded, file bool) {
			args := append(append([]string{}, b.args...), "--max-input=1024")
			stdin := pad(b.valid, limit)
			if file {
				f := filepath.Join(GinkgoT().TempDir(), "in.txt")
				Expect(os.WriteFile(f, []byte(stdin), 0o644)).To(Succeed())
				args, stdin = append(args, f), ""
			}
			stdout := succeeds(stdin, args...)
			Expect(stdout).NotTo(BeEmpty())
		},
		limitEntries(false, true),
	)

	DescribeTable("never reads more than the limit plus one byte of endless stdin",
		func(b bounded, _ bool) {
			var in endless
			var out, errb bytes.Buffer
			code := run(context.Background(), append(append([]string{}, b.args...), "--max-input", "100000"), &in, &out, &errb)
			Expect(errb.String()).To(Equal(b.prefix + ": <stdin>: input exceeds the limit of 100000 bytes; raise it with --max-input\n"))
			Expect(code).To(Equal(2))
			Expect(in.served).To(BeNumerically("<=", 100001))
		},
		limitEntries(false),
	)

	It("refuses a file larger than the default limit before reading it", func() {
		f := filepath.Join(GinkgoT().TempDir(), "sparse.bin")
		fh, err := os.Create(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(fh.Truncate(defaultMaxInput + 1)).To(Succeed()) // sparse: no disk, and reading it would take seconds
		Expect(fh.Close()).To(Succeed())
		code, stdout, stderr := invoke("", "stats", f)
		Expect(stderr).To(Equal("toolout stats: " + f + ": input exceeds the limit of 128MiB (134217728 bytes); raise it with --max-input\n"))
		Expect(stdout).To(BeEmpty())
		Expect(code).To(Equal(2))
	})

	It("names a directory given as FILE", func() {
		dir := GinkgoT().TempDir()
		code, _, stderr := invoke("", "stats", dir)
		Expect(stderr).To(Equal("toolout stats: " + dir + ": is a directory\n"))
		Expect(code).To(Equal(2))
	})

	DescribeTable("--max-input takes a byte count with an optional unit",
		func(value string, want int64) {
			var s byteSize
			Expect(s.Set(value)).To(Succeed())
			Expect(int64(s)).To(Equal(want))
			var again byteSize
			Expect(again.Set(s.String())).To(Succeed())
			Expect(again).To(Equal(s))
		},
		Entry("plain bytes", "100", int64(100)),
		Entry("B", "100B", int64(100)),
		Entry("KiB", "1KiB", int64(1024)),
		Entry("K", "1k", int64(1024)),
		Entry("MiB", "64MiB", int64(64<<20)),
		Entry("M, any case", "64m", int64(64<<20)),
		Entry("GiB", "2GiB", int64(2<<30)),
		Entry("TiB", "1TiB", int64(1<<40)),
		Entry("kB is 1000", "1kB", int64(1000)),
		Entry("MB is a million", "64MB", int64(64_000_000)),
		Entry("GB", "2GB", int64(2_000_000_000)),
	)

	DescribeTable("--max-input parsing errors are one line, exit 2",
		func(value, want string) {
			code, stdout, stderr := invoke("x", "stats", "--max-input", value)
			Expect(stderr).To(Equal("toolout stats: invalid value \"" + value + "\" for flag -max-input: " + want + "\n"))
			Expect(stdout).To(BeEmpty())
			Expect(code).To(Equal(2))
		},
		Entry("empty", "", "want a byte count such as 1048576, 64MiB or 1GiB"),
		Entry("no number", "MiB", "want a byte count such as 1048576, 64MiB or 1GiB"),
		Entry("words", "lots", "want a byte count such as 1048576, 64MiB or 1GiB"),
		Entry("negative", "-5", "want a byte count such as 1048576, 64MiB or 1GiB"),
		Entry("a fraction", "1.5MiB", "want a byte count such as 1048576, 64MiB or 1GiB"),
		Entry("space inside", "64 MiB", "want a byte count such as 1048576, 64MiB or 1GiB"),
		Entry("unknown unit", "64XB", `unknown unit "XB" (want B, K, KiB, KB, M, MiB, MB, G, GiB, GB, T, TiB or TB)`),
		Entry("zero", "0", "must be at least 1 byte"),
		Entry("too large", "9223372036854775807", "out of range (at most 9223372036854775806 bytes)"),
		Entry("overflow with a unit", "9000000TiB", "out of range (at most 9223372036854775806 bytes)"),
		Entry("overflow of the digits", "99999999999999999999999", "out of range (at most 9223372036854775806 bytes)"),
	)

	It("lists --max-input in a subcommand's help with the default", func() {
		code, stdout, _ := invoke("", "chunk", "-h")
		Expect(code).To(Equal(0))
		Expect(stdout).To(ContainSubstring("-max-input"))
		Expect(stdout).To(ContainSubstring("(default 128MiB)"))
	})
})

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("streaming stats and shadow-id", func() {
	// Read 777 bytes at a time, so that the stream is cut everywhere.
	texts := []string{
		"", "x", "\n", "a\nb", "a\nb\n", "Tool output is too large.\nsecond line",
		strings.Repeat("2026-11-03T10:00:01Z host=web-0 level=ERROR msg=\"upstream timeout\"\n", 300),
		strings.Repeat("=", 20_000),
		strings.Repeat("ab\n/cd \n\n  {x}\n'll\n\xff\xfe", 1_000),
	}
	trickled := func(text string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, &trickle{text: text, step: 777}, &out, &errb)
		return code, out.String(), errb.String()
	}

	It("counts what store.Measure counts over the whole text", func() {
		for _, enc := range tokens.Names() {
			tk := tokens.MustNew(enc)
			for _, text := range texts {
				code, stdout, stderr := trickled(text, "stats", "--encoding", enc)
				Expect(stderr).To(BeEmpty())
				Expect(code).To(Equal(0))
				Expect(stdout).To(MatchJSON(mustJSON(store.Measure(text, tk))), "%s on %d bytes", enc, len(text))
			}
		}
	})

	It("prints gateway.ShadowID of the whole input", func() {
		for _, text := range texts {
			code, stdout, _ := trickled(text, "gateway", "shadow-id")
			Expect(code).To(Equal(0))
			Expect(stdout).To(Equal(`{"shadow_id":"` + gateway.ShadowID(text) + `"}` + "\n"))
		}
	})
})
