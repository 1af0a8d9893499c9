package memstore_test

import (
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/internal/storecontract"
)

var _ = storecontract.Describe("memstore", func(opts gateway.StoreOptions) gateway.Store {
	return memstore.New(opts)
})
