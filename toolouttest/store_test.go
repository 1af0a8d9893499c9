package toolouttest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/toolouttest"
)

// sharedOriginals is a backend that forgets whose original is whose: every
// caller's lookup finds any caller's original.
type sharedOriginals struct{ gateway.Store }

func (s sharedOriginals) PutOriginal(ctx context.Context, _, id, v string) error {
	return s.Store.PutOriginal(ctx, "", id, v)
}

func (s sharedOriginals) Original(ctx context.Context, _, id string) (string, bool, error) {
	return s.Store.Original(ctx, "", id)
}

// TestStore names the cases a backend breaks, what it found and what the
// contract wants, and passes the others.
func TestTestStoreFindsBreaches(t *testing.T) {
	err := toolouttest.TestStore(func(opts gateway.StoreOptions) gateway.Store { return sharedOriginals{memstore.New(opts)} })
	if err == nil {
		t.Fatal("a store that shares originals between callers kept the contract")
	}
	for _, want := range []string{
		"answers an original only to the caller that put it, as missing to any other:\n",
		`bob's original of alice's id: got alice's log, want <missing>`,
		"never lets one caller's id name another caller's original, whatever their bytes:\n",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the failure does not say %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "returns what was put, each kind in its own namespace") {
		t.Errorf("a case the store keeps failed:\n%v", err)
	}
}
