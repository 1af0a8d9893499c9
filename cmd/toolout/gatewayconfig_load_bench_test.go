package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolout/toolout/internal/hostile"
)

// configHead starts a config that the loader accepts.
const configHead = "pipes:\n  tool_output:\n    enabled: true\n"

// fillConfig writes rows made by row after open until the config holds
// about size bytes.
func fillConfig(size int, open string, row func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(open)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(row(i))
	}
	return []byte(b.String())
}

// hostileConfigs are gateway configs of about size bytes (the loader
// refuses files over 1 MiB): a long flow list; a ${VAR} in every item; many
// providers; many unknown keys, each a problem with a nearest known key to
// find; flow lists nested 100 deep; block lists nested 100 deep; many
// aliases; comments.
var hostileConfigs = []hostile.Input{
	{Name: "skip-tools", Make: func(n int) []byte {
		return append(fillConfig(n, configHead+"    skip_tools: [t", func(i int) string { return fmt.Sprintf(", t%d", i) }), "]\n"...)
	}},
	{Name: "env-vars", Make: func(n int) []byte {
		return append(fillConfig(n, configHead+"    skip_tools: [t", func(int) string { return `, "${HOME}-${USER}"` }), "]\n"...)
	}},
	{Name: "providers", Make: func(n int) []byte {
		return fillConfig(n, configHead+"providers:\n", func(i int) string {
			return fmt.Sprintf("  p%d: {base_url: \"http://127.0.0.1:%d/v1\", model: m}\n", i, 1024+i%60000)
		})
	}},
	{Name: "unknown-keys", Make: func(n int) []byte {
		return fillConfig(n, configHead, func(i int) string { return fmt.Sprintf("    stratgy%d: simple\n", i) })
	}},
	{Name: "nested-flow", Make: func(n int) []byte {
		nest := strings.Repeat("[", 100) + strings.Repeat("]", 100)
		return append(fillConfig(n, configHead+"    skip_tools: [t", func(int) string { return ", " + nest }), "]\n"...)
	}},
	{Name: "deep-block", Make: func(n int) []byte {
		return fillConfig(n, configHead+"x:\n", func(i int) string { return strings.Repeat(" ", i%100+1) + "- \n" })
	}},
	{Name: "many-aliases", Make: func(n int) []byte {
		return append(fillConfig(n, "x: &a t\n"+configHead+"    skip_tools: [t", func(int) string { return ", *a" }), "]\n"...)
	}},
	{Name: "comments", Make: func(n int) []byte {
		return fillConfig(n, configHead, func(int) string { return "# " + strings.Repeat("c", 60) + "\n" })
	}},
}

// BenchmarkGatewayConfigAdversarial loads each of hostileConfigs at 96 KiB
// and 960 KiB (the bound refuses 1 MiB and more; make bench-linear pairs
// each size with its tenfold).
func BenchmarkGatewayConfigAdversarial(b *testing.B) {
	hostile.WarmHeap()
	for _, in := range hostileConfigs {
		for _, size := range []int{96 << 10, 960 << 10} {
			b.Run("input="+in.Name+"/size="+hostile.SizeName(size), func(b *testing.B) {
				data := in.Make(size)
				if len(data) > maxConfigBytes {
					b.Fatalf("%d bytes, over the bound", len(data))
				}
				path := filepath.Join(b.TempDir(), "gw.yaml")
				if err := os.WriteFile(path, data, 0o644); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					_, _ = loadGatewayConfig(path)
				}
			})
		}
	}
}
