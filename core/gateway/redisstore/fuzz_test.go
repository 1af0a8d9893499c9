package redisstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/redis/go-redis/v9"

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
	rc := redis.NewClient(&redis.Options{Addr: srv.Addr})
	f.Cleanup(func() { _ = rc.Close() })
	ctx := context.Background()
	storecontract.Fuzz(f, "../../../scenarios/gateway/data", func(t *testing.T, opts gateway.StoreOptions) gateway.Store {
		if err := rc.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL, Store: opts})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
