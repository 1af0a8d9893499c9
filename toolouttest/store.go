package toolouttest

import (
	"testing"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/internal/storecontract"
)

// TestStore checks the stores open returns against the gateway.Store
// contract, one new store per case, and returns every failure joined, each
// naming its case; nil when the backend keeps the whole contract. open must
// return an empty store built with the options given (their Sources.Now is
// the case's clock); the case closes it. See the package documentation.
func TestStore(open func(gateway.StoreOptions) gateway.Store) error {
	return storecontract.Check(open)
}

// CheckStore is TestStore with one subtest of t per case of the contract
// (basics/namespaces, expiry/ttl, ...). open may fail or skip its t, and
// register cleanups on it.
func CheckStore(t *testing.T, open func(*testing.T, gateway.StoreOptions) gateway.Store) {
	t.Helper()
	for _, c := range storecontract.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if err := c.Run(func(opts gateway.StoreOptions) gateway.Store { return open(t, opts) }); err != nil {
				t.Error(err)
			}
		})
	}
}
