package storecontract_test

import (
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/internal/storecontract"
)

// A backend's suite registers the contract at the top level of one of its
// _test.go files; Ginkgo runs the specs with the suite (see
// core/gateway/memstore and core/gateway/redisstore). Not run as an
// example: the specs run inside their suite.
func ExampleDescribe() {
	var _ = storecontract.Describe("memstore", func(opts gateway.StoreOptions) gateway.Store {
		return memstore.New(opts)
	})
}
