package core

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
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
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func mustRead(b []byte) {
	// crypto/rand.Read never returns an error on supported platforms (Go 1.24+);
	// it crashes the program irrecoverably instead.
	_, _ = rand.Read(b)
}
