package importer_test

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
	"github.com/toolout/toolout/internal/tracegen"
)

// peakHeap runs f and returns the most heap it held live at once above
// what was live before: the largest live heap a garbage collection marked
// (runtime/metrics /gc/heap/live:bytes) during f, sampled every 200 µs,
// with GOGC at 10 so that a collection comes at every tenth of growth. The
// live heap leaves out the garbage not yet collected, whose amount follows
// how late the collector runs on a loaded machine (HeapAlloc read up to
// 23x where the same import read 15x idle); a sample can only miss a
// peak, so a bound that holds here holds at least as well as measured.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := live()
	peak := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			peak = max(peak, live())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	runtime.GC() // marks what f's last stretch held, if it still does
	close(stop)
	wg.Wait()
	peak = max(peak, live())
	return peak - min(base, peak)
}

// A 10 MiB trace of many tool calls peaked at 1.3 GB (the YAML encoder
// held every event of the scenario until its end); the goal is a peak RSS
// of at most 10 times the trace plus 64 MB, which bench/importmem measures
// on the real binary at 1, 10 and 100 MiB. Here, in process, at 1 MiB (a
// quarter of it under the race detector: memScale) and with GOGC at 10,
// what the import holds at once once a small import of the same format has
// loaded what is loaded once per process: at most 16 times the trace plus
// 2 MB. Before the fixes the long sessions of every format but
// OpenLLMetry's and OpenInference's held 28x (OTel) to 76x (messages); now
// at most 10.2x (12.9x under race, whose runtime allocates more).
var _ = Describe("Import's memory", Serial, func() {
	var entries []TableEntry
	for _, format := range tracegen.Formats {
		for _, shape := range tracegen.Shapes {
			entries = append(entries, Entry(nil, format, shape))
		}
	}
	DescribeTable("peaks at a bounded multiple of the trace",
		func(format, shape string) {
			o := importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.json", At: -1, Format: tracegen.ImportFormat(format)}
			warmUp(format, shape, o)
			trace, err := tracegen.Trace(format, shape, 1<<20/memScale)
			Expect(err).NotTo(HaveOccurred())
			peak := peakHeap(func() { _, err = importer.Import(trace, o) })
			if shape != "session" || err == nil || !strings.Contains(err.Error(), "a scenario file may hold") {
				Expect(err).NotTo(HaveOccurred()) // a session of many calls may be refused, as too big a scenario
			}
			GinkgoWriter.Printf("%s %s: %d bytes, heap peak %d (%.1fx)\n", format, shape, len(trace), peak, float64(peak)/float64(len(trace)))
			Expect(peak).To(BeNumerically("<=", 16*len(trace)+2<<20))
		},
		func(format, shape string) string { return format + ", " + shape }, entries)
})

// A Responses call of many small items and an OTLP span of many events
// were each parsed as one tree of nodes before they were read, 5 to 6
// times their bytes: at 8 MiB the calls shape of a Responses log held
// 11.4x, of OTel events 9.5x (at 100 MiB, /usr/bin/time measured 11.7x
// and 10.8x, over the bound). Their items and events are now built one at
// a time: 6.3x and 6.8x (5.8x and 6.7x at 2 MiB under race); the bound is
// 8 times plus 2 MB.
var _ = Describe("Import's memory for many small items", Serial, func() {
	DescribeTable("holds the items of a Responses call and the events of an OTLP span one at a time",
		func(format string) {
			o := importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.json", At: -1, Format: tracegen.ImportFormat(format)}
			warmUp(format, "calls", o)
			trace, err := tracegen.Trace(format, "calls", 8<<20/memScale)
			Expect(err).NotTo(HaveOccurred())
			peak := peakHeap(func() { _, err = importer.Import(trace, o) })
			Expect(err).NotTo(HaveOccurred())
			GinkgoWriter.Printf("%s calls: %d bytes, heap peak %d (%.1fx)\n", format, len(trace), peak, float64(peak)/float64(len(trace)))
			Expect(peak).To(BeNumerically("<=", 8*len(trace)+2<<20))
		},
		Entry(nil, "responses-log"), Entry(nil, "otel-genai-events"))
})

// warmUp imports a small trace of the format and shape first, so that what
// an import loads once per process (the tokenizer's tables) is live before
// the measure and the bound's constant can be small.
func warmUp(format, shape string, o importer.ImportOptions) {
	small, err := tracegen.Trace(format, shape, 16<<10)
	Expect(err).NotTo(HaveOccurred())
	_, _ = importer.Import(small, o)
}
