package main

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout extract cut", func() {
	var log strings.Builder
	for i := range 120 {
		switch i {
		case 60:
			log.WriteString("ts=60 level=ERROR err=\"java.lang.IllegalStateException: ledger closed\"\n")
		case 61:
			log.WriteString("\tat com.example.Ledger.post(Ledger.java:61)\n")
		default:
			fmt.Fprintf(&log, "ts=%d level=INFO status=200\n", i)
		}
	}
	cut := func(stdin string, args ...string) string {
		return succeeds(stdin, append([]string{"extract", "cut"}, args...)...)
	}
	const header = "ABSTRACT FROM TOOL OUTPUT tool WITH HANDLE 00000000-0000-4000-8000-000000000000, STRATEGY:"

	It("prints tool_output's head-tail answer, with the middle's error lines", func() {
		out := cut(log.String(), "--mode", "head-tail", "--truncate-bytes", "900")
		Expect(out).To(HavePrefix(header + "head-tail:\n\nts=0 level=INFO"))
		Expect(out).To(ContainSubstring("ledger closed\"\n\tat com.example.Ledger.post(Ledger.java:61)\n"))
		Expect(out).To(HaveSuffix("ts=119 level=INFO status=200\n\n"))
	})

	It("cuts bytes for truncate by default, and head-tail when told", func() {
		out := cut(log.String(), "--truncate-bytes", "900")
		Expect(out).To(HavePrefix(header + "truncate:\n\nts=0 level=INFO"))
		Expect(out).To(ContainSubstring(" bytes truncated ...]\n"))
		Expect(out).NotTo(ContainSubstring("ledger closed"))
		out = cut(log.String(), "--truncate-bytes", "900", "--truncate-with", "head-tail")
		Expect(out).To(HavePrefix(header + "truncate:\n\nts=0 level=INFO"))
		Expect(out).To(ContainSubstring("ledger closed"))
	})

	It("falls back to truncate with the spec's warning when json-aware gets no JSON", func() {
		out := cut(log.String(), "--mode", "json-aware", "--truncate-bytes", "900")
		Expect(out).To(HavePrefix(header + "truncate:\n\nWARNING: tool_output fallback to truncate (json-aware failed).\nts=0 level=INFO"))
	})

	It("keeps JSON valid in json-aware, with the error row", func() {
		var doc strings.Builder
		doc.WriteString(`[`)
		for i := range 400 {
			status := "ok"
			if i == 200 {
				status = "error: card declined"
			}
			fmt.Fprintf(&doc, `{"id":%d,"status":%q},`, i, status)
		}
		doc.WriteString(`{"id":400,"status":"ok"}]`)
		out := cut(doc.String(), "--mode", "json-aware", "--truncate-bytes", "900")
		body, ok := strings.CutPrefix(out, header+"json-aware:\n\n")
		Expect(ok).To(BeTrue(), out)
		body = strings.TrimSuffix(body, "\n")
		Expect(json.Valid([]byte(body))).To(BeTrue(), body)
		Expect(len(body)).To(BeNumerically("<=", 900))
		Expect(body).To(ContainSubstring(`"error: card declined"`))
		Expect(body).To(HavePrefix(`[{"id":0,`))
		Expect(body).To(HaveSuffix(`{"id":400,"status":"ok"}]`))
	})
})
