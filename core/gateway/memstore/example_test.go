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
		MaxBytes:    80,
		Sources:     core.Sources{Now: clock.Now},
	})
	defer s.Close()

	_ = s.PutOriginal(ctx, "shadow_1", "the full tool output")
	_ = s.PutCompressed(ctx, "shadow_1", "the summary")
	_ = s.PutOriginal(ctx, "shadow_2", "another output that pushes the store past 80 bytes")
	st, _ := s.Stats(ctx)
	fmt.Printf("%+v\n", st)

	_, ok, _ := s.Original(ctx, "shadow_1")
	fmt.Println("shadow_1 original kept:", ok)

	clock.Advance(5 * time.Minute)
	st, _ = s.Stats(ctx)
	fmt.Printf("after 5 minutes: %+v\n", st)
	// Output:
	// {Originals:1 Compressed:1 Bytes:77}
	// shadow_1 original kept: false
	// after 5 minutes: {Originals:0 Compressed:1 Bytes:19}
}
