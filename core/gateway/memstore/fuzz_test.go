package memstore_test

import (
	"testing"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/internal/storecontract"
)

// FuzzStore checks the memstore against the contract's model on any
// operation program (storecontract.Fuzz).
func FuzzStore(f *testing.F) {
	storecontract.Fuzz(f, "../../../scenarios/gateway/data", func(_ *testing.T, opts gateway.StoreOptions) gateway.Store {
		return memstore.New(opts)
	})
}
