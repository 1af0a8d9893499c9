package gateway

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
	"strings"
)

// AnonymousCaller is the caller of a request that carries no identity (no
// API key, no identity header): one scope that every such request shares.
const AnonymousCaller = ""

// callerDomain starts every hashed identity, so that a caller is never the
// plain SHA-256 of a key that other systems (a LiteLLM proxy's
// user_api_key_hash) log.
const callerDomain = "toolout gateway caller v1"

// Identity says how the proxy tells its callers apart, to scope the
// originals it keeps: an original is stored under the caller of the request
// that compressed it, and only a request of the same caller can expand it.
// The zero Identity scopes by API key.
type Identity struct {
	// Header names a request header whose value identifies the caller
	// (X-User-Id, set by an authenticating proxy in front). A request
	// without it is scoped by its API key, as with no Header.
	Header string `yaml:"header"`
	// Salt keys the hash of identities (HMAC-SHA256). Empty is a fixed
	// key: callers then match across restarts and across replicas sharing
	// a Redis store, as they also do with a configured salt; a random salt
	// per process would not.
	Salt string `yaml:"salt"`

	keyed *keyedHMAC // Keyed's: the HMAC keyed by Salt, cloned for each hash
}

// Validate reports a Header that is not an HTTP header name.
func (id Identity) Validate() error {
	for i := 0; i < len(id.Header); i++ {
		if !isTokenByte(id.Header[i]) {
			return fmt.Errorf("header %q: not an HTTP header name (byte %d)", id.Header, i+1)
		}
	}
	return nil
}

// isTokenByte reports whether c may appear in an HTTP header name (RFC
// 9110 token).
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// Header is what Caller reads of a request's headers: an http.Header is
// one (this package does not speak HTTP; the proxy does).
type Header interface {
	Get(key string) string
}

// Caller returns the caller of a request with header h: the hash of the
// Header's value when set and present, else the hash of the API key
// ([APIKey]), else [AnonymousCaller]. A caller is 32 hex digits (the first
// 16 bytes of HMAC-SHA256 keyed by Salt), so neither a key nor a header
// value is ever kept, logged or sent to a store in clear.
func (id Identity) Caller(h Header) string {
	if id.Header != "" {
		if v := strings.TrimSpace(h.Get(id.Header)); v != "" {
			return id.hash("header", v)
		}
	}
	if key := APIKey(h); key != "" {
		return id.hash("key", key)
	}
	return AnonymousCaller
}

// Keyed returns id with its HMAC keyed once: each Caller of it starts from
// a clone of that rather than hashing the salt again (the proxy keeps one
// per Identity it serves). Its callers are id's.
func (id Identity) Keyed() Identity {
	id.keyed = &keyedHMAC{salt: id.Salt, h: hmac.New(sha256.New, []byte(id.Salt))}
	return id
}

func (id Identity) hash(kind, value string) string {
	m := id.keyed.fresh(id.Salt)
	m.Write([]byte(callerDomain + "\x00" + kind + "\x00" + value))
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0])[:16])
}

// keyedHMAC is an HMAC-SHA256 keyed by salt, never written to: each
// caller's hash starts from a clone of it.
type keyedHMAC struct {
	salt string
	h    hash.Hash
}

// fresh returns an HMAC-SHA256 keyed by salt: a clone of k's when k is
// keyed by it, else a new one.
func (k *keyedHMAC) fresh(salt string) hash.Hash {
	if k != nil && k.salt == salt {
		if c, ok := k.h.(hash.Cloner); ok {
			if m, err := c.Clone(); err == nil {
				return m
			}
		}
	}
	return hmac.New(sha256.New, []byte(salt))
}

// APIKey returns the API key a client sent: x-api-key (Anthropic), else
// Authorization without its "Bearer " (OpenAI, the Responses API,
// Anthropic's OAuth clients), else api-key (Azure OpenAI); "" when none is
// set. The same key sent either way is the same caller.
func APIKey(h Header) string {
	if k := strings.TrimSpace(h.Get("X-Api-Key")); k != "" {
		return k
	}
	if a := strings.TrimSpace(h.Get("Authorization")); a != "" {
		scheme, rest, _ := strings.Cut(a, " ")
		if strings.EqualFold(scheme, "bearer") {
			return strings.TrimSpace(rest)
		}
		return a
	}
	return strings.TrimSpace(h.Get("Api-Key"))
}

type callerKey struct{}

// WithCaller returns ctx carrying caller: the pipe stores the originals of
// a request under it, and the expand loop looks them up under it. The
// proxy sets it on every request of a route.
func WithCaller(ctx context.Context, caller string) context.Context {
	return context.WithValue(ctx, callerKey{}, caller)
}

// CallerOf returns the caller ctx carries, or [AnonymousCaller].
func CallerOf(ctx context.Context) string {
	c, _ := ctx.Value(callerKey{}).(string)
	return c
}

// OriginalKey is the one key of caller's original of id, for a backend
// that keeps originals under one key: the length of caller, ":", caller,
// ":", id. The length makes it unambiguous for any caller and id, so no
// caller's key can name another caller's original.
func OriginalKey(caller, id string) string {
	return strconv.Itoa(len(caller)) + ":" + caller + ":" + id
}
