package core

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"iter"
	"strings"
	"time"
)

// Sources supplies the non-deterministic inputs of a component. A nil field
// means the production default. This file is the only one in core that reads
// the wall clock or crypto/rand.
type Sources struct {
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// NewID returns a fresh unique identifier; default a random UUIDv4.
	NewID func() string
	// Nonce returns a fresh nonce for final-report wrappers; default 16 random
	// lowercase hex digits.
	Nonce func() string
	// Timeout returns a context that ends d from now on Now's clock, with
	// cause context.DeadlineExceeded; default context.WithTimeout (the
	// wall clock). A component whose deadline a scripted clock must drive
	// (the gateway's upstream timeout) arms it here.
	Timeout func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
}

// WithTimeout returns s.Timeout(ctx, d) or context.WithTimeout(ctx, d).
func (s Sources) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if s.Timeout != nil {
		return s.Timeout(ctx, d)
	}
	return context.WithTimeout(ctx, d)
}

// Sleep waits d on the wall clock, or until ctx ends, and returns ctx's
// error in that case (nil when d passed first). A component whose waits a
// scripted clock must drive takes its sleep as an option instead (the
// gateway's Options.Sleep).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Time returns s.Now() or time.Now().
func (s Sources) Time() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ID returns s.NewID() or a random UUIDv4.
func (s Sources) ID() string {
	if s.NewID != nil {
		return s.NewID()
	}
	return RandomUUID()
}

// IDs yields n identifiers, what n calls of ID return: s.NewID() n times,
// or n random UUIDv4. Random ones are read from crypto/rand and written
// into one string per batch of idBatch, so that a thousand cost about what
// a few cost one by one (a component that mints an ID per item of a large
// input, as the leaked scanner per call, spent most of its time in ID).
func (s Sources) IDs(n int) iter.Seq[string] {
	return func(yield func(string) bool) {
		if s.NewID != nil {
			for range n {
				if !yield(s.NewID()) {
					return
				}
			}
			return
		}
		var raw [idBatch * 16]byte
		for n > 0 {
			k := min(n, idBatch)
			n -= k
			mustRead(raw[:k*16])
			var text strings.Builder
			text.Grow(k * uuidLen)
			var one [uuidLen]byte
			for j := range k {
				text.Write(appendUUID(one[:0], (*[16]byte)(raw[j*16:])))
			}
			all := text.String()
			for j := range k {
				if !yield(all[j*uuidLen : (j+1)*uuidLen]) {
					return
				}
			}
		}
	}
}

// idBatch is how many random UUIDs IDs reads and writes at once.
const idBatch = 256

// uuidLen is the length of a UUID in its canonical form.
const uuidLen = 36

// appendUUID sets the version (4) and variant bits of the random bytes b
// and appends them as a UUID in its canonical form.
func appendUUID(dst []byte, b *[16]byte) []byte {
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var t [uuidLen]byte
	hex.Encode(t[0:8], b[0:4])
	hex.Encode(t[9:13], b[4:6])
	hex.Encode(t[14:18], b[6:8])
	hex.Encode(t[19:23], b[8:10])
	hex.Encode(t[24:36], b[10:16])
	t[8], t[13], t[18], t[23] = '-', '-', '-', '-'
	return append(dst, t[:]...)
}

// NewNonce returns s.Nonce() or 16 random hex digits.
func (s Sources) NewNonce() string {
	if s.Nonce != nil {
		return s.Nonce()
	}
	var b [8]byte
	mustRead(b[:])
	return hex.EncodeToString(b[:])
}

// RandomUUID returns a random (version 4, RFC 9562) UUID in its canonical form.
func RandomUUID() string {
	var b [16]byte
	mustRead(b[:])
	var text [uuidLen]byte
	return string(appendUUID(text[:0], &b))
}

func mustRead(b []byte) {
	// crypto/rand.Read never returns an error on supported platforms (Go 1.24+);
	// it crashes the program irrecoverably instead.
	_, _ = rand.Read(b)
}
