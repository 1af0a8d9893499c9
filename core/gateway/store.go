package gateway

import (
	"context"
	"time"

	"github.com/toolout/toolout/core"
)

// Store defaults: the spec's TTLs, and the bounds on what is kept.
const (
	DefaultOriginalTTL   = 5 * time.Minute
	DefaultCompressedTTL = 24 * time.Hour
	DefaultMaxEntries    = 10_000
	DefaultStoreMaxBytes = 256 << 20
)

// Store keeps, per shadow id, the original content for OriginalTTL (to
// answer expand_context) and the compressed text for CompressedTTL (to
// reuse a compression). Implementations are safe for concurrent use, bound
// both the entries and the bytes they hold (the oldest entry goes first),
// and drop expired entries without waiting for them to be looked up. Expiry
// follows the injected clock of StoreOptions.Sources.
//
// Backends: memstore (one process, the default) and redisstore (shared by
// replicas). An error is a backend failure; a missing or expired id is
// (“”, false, nil).
type Store interface {
	PutOriginal(ctx context.Context, id, content string) error
	Original(ctx context.Context, id string) (string, bool, error)
	PutCompressed(ctx context.Context, id, text string) error
	Compressed(ctx context.Context, id string) (string, bool, error)
	// Stats reports what the store holds now (expired entries not counted).
	Stats(ctx context.Context) (StoreStats, error)
	// Close releases the backend's resources.
	Close() error
}

// StoreStats is a snapshot of a store's size.
type StoreStats struct {
	Originals  int   `json:"originals"`
	Compressed int   `json:"compressed"`
	Bytes      int64 `json:"bytes"` // keys and values of both kinds
}

// StoreOptions configure a Store backend. The yaml names are the spec's
// pipes.tool_output keys, where the config file embeds them inline.
type StoreOptions struct {
	// OriginalTTL is how long originals are kept for expansion.
	OriginalTTL time.Duration `yaml:"original_ttl"`
	// CompressedTTL is how long compressed texts are kept for reuse.
	CompressedTTL time.Duration `yaml:"compressed_ttl"`
	// MaxEntries bounds the entries of each kind.
	MaxEntries int `yaml:"max_entries"`
	// MaxBytes bounds the bytes of all entries (keys and values); in the
	// config file it is store.max_bytes, next to the backend.
	MaxBytes int64 `yaml:"-"`
	// Sources supplies the clock.
	Sources core.Sources `yaml:"-"`
}

// WithDefaults returns o with every zero field set to its default.
func (o StoreOptions) WithDefaults() StoreOptions {
	orDefault(&o.OriginalTTL, DefaultOriginalTTL)
	orDefault(&o.CompressedTTL, DefaultCompressedTTL)
	orDefault(&o.MaxEntries, DefaultMaxEntries)
	orDefault(&o.MaxBytes, DefaultStoreMaxBytes)
	return o
}
