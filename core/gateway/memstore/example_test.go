package memstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/fakes"
)

func ExampleNew() {
	ctx := context.Background()
	clock := &fakes.Clock{Step: -1} // moves only through Advance
	s := memstore.New(gateway.StoreOptions{
		OriginalTTL: 5 * time.Minute,
		MaxBytes:    85,
		Sources:     core.Sources{Now: clock.Now},
	})
	defer s.Close()

	// Originals are kept per caller (a hash of the API key in the
	// gateway; "alice" here); compressed texts are shared.
	_ = s.PutOriginal(ctx, "alice", "shadow_1", "the full tool output")
	_ = s.PutCompressed(ctx, "shadow_1", "the summary")
	_, ok, _ := s.Original(ctx, "bob", "shadow_1")
	fmt.Println("bob finds alice's original:", ok)
	_ = s.PutOriginal(ctx, "alice", "shadow_2", "another output that pushes the store past 85 bytes")
	st, _ := s.Stats(ctx)
	fmt.Printf("%+v\n", st)

	_, ok, _ = s.Original(ctx, "alice", "shadow_1")
	fmt.Println("shadow_1 original kept:", ok)

	clock.Advance(5 * time.Minute)
	st, _ = s.Stats(ctx)
	fmt.Printf("after 5 minutes: %+v\n", st)
	// Output:
	// bob finds alice's original: false
	// {Originals:1 Compressed:1 Bytes:82}
	// shadow_1 original kept: false
	// after 5 minutes: {Originals:0 Compressed:1 Bytes:19}
}

func ExampleHeapBound() {
	// The most heap a store at the default bounds holds in its entries:
	// 256 MiB of keys and values, plus EntryOverhead and a key prefix for
	// each of 10,000 entries of each kind.
	fmt.Printf("%.1f MiB\n", float64(memstore.HeapBound(gateway.StoreOptions{}))/(1<<20))
	// Output:
	// 259.5 MiB
}
