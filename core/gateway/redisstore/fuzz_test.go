package redisstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gomodule/redigo/redis"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/internal/redistest"
	"github.com/toolout/toolout/internal/storecontract"
)

// FuzzStore checks the Lua scripts against the contract's model on any
// operation program (storecontract.Fuzz), on a redis-server of its own,
// emptied before each program. It skips without redis-server.
func FuzzStore(f *testing.F) {
	srv, err := redistest.Start(f.TempDir())
	if errors.Is(err, redistest.ErrMissing) {
		f.Skip(redistest.Missing)
	}
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = srv.Stop() })
	rc, err := redis.DialURL(srv.URL)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = rc.Close() })
	ctx := context.Background()
	storecontract.Fuzz(f, "../../../scenarios/gateway/data", func(t *testing.T, opts gateway.StoreOptions) gateway.Store {
		if _, err := rc.Do("FLUSHDB"); err != nil {
			t.Fatal(err)
		}
		s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL, Store: opts})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
