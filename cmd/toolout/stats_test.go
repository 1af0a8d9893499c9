package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

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
		Expect(stderr).To(Equal("toolout stats: --encoding: tokens: unknown encoding \"p50k\" (known: cl100k_base, o200k_base)\n"))
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
