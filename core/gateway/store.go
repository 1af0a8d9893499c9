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

// Store keeps, per caller and shadow id, the original content for
// OriginalTTL (to answer expand_context), and per shadow id the compressed
// text for CompressedTTL (to reuse a compression). Implementations are safe
// for concurrent use, bound both the entries and the bytes they hold (the
// oldest entry goes first), and drop expired entries without waiting for
// them to be looked up. Expiry follows the injected clock of
// StoreOptions.Sources.
//
// Originals are scoped to their caller ([Identity.Caller]: a hash of the
// API key or of an identity header, never the key itself): an original put
// by one caller is another entry than the same id put by another, and
// Original answers only the caller that put it; for any other caller it is
// missing, exactly as an id never put. An original counts
// len(caller)+len(id)+len(content) against MaxBytes. Compressed texts are
// shared by every caller: one is only found through the shadow id of the
// content it compresses, so a caller reuses a compression only of content
// it sent itself (the gateway then puts the original again, under that
// caller).
//
// Backends: memstore (one process, the default) and redisstore (shared by
// replicas). An error is a backend failure; a missing or expired id, or
// one of another caller, is (“”, false, nil).
type Store interface {
	PutOriginal(ctx context.Context, caller, id, content string) error
	Original(ctx context.Context, caller, id string) (string, bool, error)
	PutCompressed(ctx context.Context, id, text string) error
	Compressed(ctx context.Context, id string) (string, bool, error)
	// Stats reports what the store holds now (expired entries not counted).
	Stats(ctx context.Context) (StoreStats, error)
	// Close releases the backend's resources.
	Close() error
}

// OriginalTaker is a Store in the process that can keep an original as it
// is given, without the copy PutOriginal makes: content is a string whose
// allocation, of held bytes, nothing else holds a part of (the parse made
// it for this one tool output), so keeping it keeps no more than held
// bytes alive. The memory store is one; the pipe uses it for the contents
// a request's parse decoded (ToolOutput.Held).
type OriginalTaker interface {
	TakeOriginal(ctx context.Context, caller, id, content string, held int) error
}

// StoreStats is a snapshot of a store's size.
type StoreStats struct {
	Originals  int   `json:"originals"`
	Compressed int   `json:"compressed"`
	Bytes      int64 `json:"bytes"` // callers, ids and values of both kinds
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
