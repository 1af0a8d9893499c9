// Package gatewaytest holds what the specs of core/gateway and of its
// HTTP layer, core/gateway/proxy, both build their cases from: a pipe on a
// clock that moves only when a spec says so, texts of a known number of
// words or bytes, and a compressor made of a function. It is for tests
// only (it fails the running Ginkgo spec on a setup error), which is why
// it lives outside core.
package gatewaytest

import (
	"context"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/fakes"
)

// Manual returns sources whose clock moves only through Advance.
func Manual() (core.Sources, *fakes.Clock) {
	clock := &fakes.Clock{Step: -1}
	return core.Sources{Now: clock.Now}, clock
}

// NewPipe is a pipe of cfg and c over a memory store, both on a Manual
// clock; a setup error fails the running spec.
func NewPipe(cfg gateway.Config, c gateway.Compressor) *gateway.Pipe {
	GinkgoHelper()
	src, _ := Manual()
	p, err := gateway.NewPipe(gateway.Options{Config: cfg, Compressor: c, Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
	Expect(err).NotTo(HaveOccurred())
	return p
}

// Words is n distinct words ("w00000 w00001 …") joined by spaces.
func Words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%05d", i)
	}
	return strings.Join(w, " ")
}

// Sized is a text of exactly n bytes ("x x x … y").
func Sized(n int) string { return strings.Repeat("x ", n/2) + strings.Repeat("y", n%2) }

// CompressorFunc is a gateway.Compressor made of a function.
type CompressorFunc func(gateway.Input) (string, error)

// Compress calls f.
func (f CompressorFunc) Compress(_ context.Context, in gateway.Input) (string, error) { return f(in) }
