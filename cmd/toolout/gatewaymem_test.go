package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/proxy"
)

var _ = Describe("the gateway's soft memory limit", func() {
	noEnv := func(string) string { return "" }
	config := func(store StoreConfig, server ServerConfig, maxEntries int) FileConfig {
		var fc FileConfig
		fc.Store, fc.Server = store, server
		fc.Pipes.ToolOutput.MaxEntries = maxEntries
		return fc
	}

	DescribeTable("is chosen from the config when GOMEMLIMIT is unset",
		func(fc FileConfig, want int64, why string) {
			limit, reason, err := fc.memoryLimit(noEnv)
			Expect(err).NotTo(HaveOccurred())
			Expect(limit).To(Equal(want))
			if why == "" {
				Expect(reason).To(BeEmpty())
			} else {
				Expect(reason).To(ContainSubstring(why))
			}
		},
		Entry("the memory store at its defaults: its heap bound, the memo of request strings and 32 MiB",
			config(StoreConfig{}, ServerConfig{}, 0), memstore.HeapBound(gateway.StoreOptions{})+proxy.KnownBytes+32<<20, "store.max_bytes 268435456 and max_entries 10000, plus 48 MiB"),
		Entry("a smaller memory store: its own bound",
			config(StoreConfig{Backend: "memory", MaxBytes: 64 << 20}, ServerConfig{}, 500),
			memstore.HeapBound(gateway.StoreOptions{MaxBytes: 64 << 20, MaxEntries: 500})+proxy.KnownBytes+32<<20, "store.max_bytes 67108864 and max_entries 500"),
		Entry("server.memory_limit: that limit", config(StoreConfig{}, ServerConfig{MemoryLimit: 1 << 30}, 0), int64(1<<30), "server.memory_limit"),
		Entry("server.memory_limit -1: none", config(StoreConfig{}, ServerConfig{MemoryLimit: -1}, 0), int64(0), "none (server.memory_limit -1)"),
		Entry("a memory store past what an int64 holds: none",
			config(StoreConfig{MaxBytes: math.MaxInt64 - 1}, ServerConfig{}, 0), int64(0), "none (the memory store's bound is past"),
		Entry("a Redis store, out of process: none, and nothing said", config(StoreConfig{Backend: "redis"}, ServerConfig{}, 0), int64(0), ""),
	)

	It("says nothing for a Redis store, GOMEMLIMIT set or not", func() {
		env := func(k string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[k] }
		limit, why, err := config(StoreConfig{Backend: "redis"}, ServerConfig{}, 0).memoryLimit(env)
		Expect(err).NotTo(HaveOccurred())
		Expect(limit).To(BeZero())
		Expect(why).To(BeEmpty())
	})

	It("leaves GOMEMLIMIT from the environment as it is, over server.memory_limit too", func() {
		env := func(k string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[k] }
		for _, fc := range []FileConfig{config(StoreConfig{}, ServerConfig{}, 0), config(StoreConfig{}, ServerConfig{MemoryLimit: 64 << 20}, 0)} {
			limit, why, err := fc.memoryLimit(env)
			Expect(err).NotTo(HaveOccurred())
			Expect(limit).To(BeZero())
			Expect(why).To(Equal("GOMEMLIMIT 1GiB from the environment"))
		}
	})

	DescribeTable("refuses a server.memory_limit that is not -1, 0 or at least 16 MiB",
		func(l int64) {
			_, _, err := config(StoreConfig{}, ServerConfig{MemoryLimit: l}, 0).memoryLimit(noEnv)
			Expect(err).To(MatchError(ContainSubstring("server.memory_limit %d: want -1 (none), 0 (from the store) or at least 16777216 bytes", l)))
		},
		Entry("below -1", int64(-2)), Entry("a few bytes", int64(1000)),
	)

	It("is taken from the bound the memory store of `gateway serve` keeps, whatever the sizes of its values", func() {
		ctx := context.Background()
		fc := config(StoreConfig{MaxBytes: 4 << 20}, ServerConfig{}, 200)
		st, err := openStore(ctx, fc, core.Sources{}, func(string, ...any) {})
		Expect(err).NotTo(HaveOccurred())
		for i := range 200 { // 32,769 bytes each, 40,960 allocated: 127 fill MaxBytes, hold 5.2 MB, over the bound
			Expect(st.PutOriginal(ctx, "c", fmt.Sprint("shadow_", i), strings.Repeat("v", 32<<10+1))).To(Succeed())
		}
		Expect(st.(*memstore.Store).Held()).To(BeNumerically("<=", memstore.HeapBound(fc.StoreOptions(core.Sources{}))))
	})

	It("is set while `gateway serve` runs, said on stderr, and put back when it stops", func() {
		GinkgoT().Setenv("GOMEMLIMIT", "") // empty counts as unset
		before := debug.SetMemoryLimit(-1)
		cfg := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
		Expect(os.WriteFile(cfg, []byte(simpleConfig+"store: {max_bytes: 67108864}\n"), 0o644)).To(Succeed())
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		pr, pw := io.Pipe()
		stderr := &lockedBuffer{}
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"gateway", "serve", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--config", cfg},
				strings.NewReader(""), pw, stderr)
			pw.Close()
		}()
		lines := bufio.NewReader(pr)
		_, err := lines.ReadString('\n') // listening
		Expect(err).NotTo(HaveOccurred(), stderr.String())
		want := memstore.HeapBound(gateway.StoreOptions{MaxBytes: 64 << 20}) + proxy.KnownBytes + 32<<20
		Expect(debug.SetMemoryLimit(-1)).To(Equal(want))
		Expect(stderr.String()).To(HavePrefix("toolout gateway serve: memory limit 115 MiB (the memory store's bound for store.max_bytes 67108864 " +
			"and max_entries 10000, plus 48 MiB)\n"))
		cancel()
		_, _ = io.Copy(io.Discard, lines)
		Expect(<-done).To(Equal(0), stderr.String())
		Expect(debug.SetMemoryLimit(-1)).To(Equal(before))
	})
})
