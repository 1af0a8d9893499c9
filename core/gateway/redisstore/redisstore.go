package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gomodule/redigo/redis"

	"github.com/toolout/toolout/core/gateway"
)

// DefaultPrefix starts every key the store writes.
const DefaultPrefix = "toolout:"

// DefaultTimeout is the dial, read and write timeout when neither Options
// nor the URL sets one.
const DefaultTimeout = 2 * time.Second

// Options configure a Store.
type Options struct {
	// URL is redis://[[USER]:PASSWORD@]HOST:PORT/DB (rediss:// for TLS),
	// with the query options dial_timeout, read_timeout, write_timeout
	// (a duration, or whole seconds) and pool_size (connections at most).
	URL string
	// Prefix starts every key; replicas that share it share one store.
	// Empty means DefaultPrefix.
	Prefix string
	// Store holds the TTLs, the bounds and the clock; zero fields mean the
	// defaults of gateway.StoreOptions.WithDefaults.
	Store gateway.StoreOptions
	// DialTimeout, ReadTimeout and WriteTimeout bound each network step;
	// zero means the URL's value, else DefaultTimeout.
	DialTimeout, ReadTimeout, WriteTimeout time.Duration
	// AllowEviction lets New accept a server whose maxmemory-policy evicts
	// any key (allkeys-lru, allkeys-lfu, allkeys-random; store.allow_eviction
	// in the gateway's config), which it refuses otherwise.
	AllowEviction bool
	// Logf receives New's warnings (a policy it cannot read, an evicting
	// one allowed), one line each; nil drops them.
	Logf func(format string, args ...any)
}

// Store is a gateway.Store on a Redis server. It is safe for concurrent
// use, by goroutines and by processes sharing the server and the prefix.
type Store struct {
	pool   *redis.Pool
	opts   gateway.StoreOptions
	prefix string
	keys   []string // the fixed KEYS of the scripts, KEYS[7] left to fill
	// wait bounds a call's wait for a pooled connection (the dial
	// timeout): past it the call fails instead of queueing behind calls
	// held by a hung server.
	wait time.Duration
	size int // the pool's MaxActive, for the error
	// evicted is the server's evicted_keys at this store's last sweep
	// (Stats), -1 before the first or when INFO cannot be read.
	evicted atomic.Int64
}

var _ gateway.Store = (*Store)(nil)

// New connects to o.URL and checks the server answers PING, and that its
// maxmemory-policy does not evict any key (unless o.AllowEviction). A bad
// URL, an unreachable server or an evicting policy is a one-line error
// naming the URL, its password hidden.
func New(ctx context.Context, o Options) (*Store, error) {
	c, err := parseURL(o.URL)
	if err != nil {
		return nil, err
	}
	dial := []redis.DialOption{
		redis.DialConnectTimeout(timeout(o.DialTimeout, c.dialTimeout)),
		redis.DialReadTimeout(timeout(o.ReadTimeout, c.readTimeout)),
		redis.DialWriteTimeout(timeout(o.WriteTimeout, c.writeTimeout)),
	}
	prefix := o.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	s := &Store{opts: o.Store.WithDefaults(), prefix: prefix,
		wait: timeout(o.DialTimeout, c.dialTimeout), size: c.poolSize}
	s.evicted.Store(-1)
	s.pool = &redis.Pool{
		DialContext: func(ctx context.Context) (redis.Conn, error) { return redis.DialURLContext(ctx, c.url, dial...) },
		MaxActive:   c.poolSize,
		MaxIdle:     c.poolSize,
		Wait:        true, // past MaxActive a call waits for a connection, bounded by its context
	}
	s.keys = []string{prefix + "bytes", prefix + "seq", prefix + "idx:o", prefix + "idx:c",
		prefix + "size:o", prefix + "size:c", ""}
	if _, err := s.do(ctx, func(ctx context.Context, cn redis.Conn) (any, error) {
		return redis.DoContext(cn, ctx, "PING")
	}); err != nil {
		_ = s.pool.Close()
		return nil, fmt.Errorf("redisstore: %s unreachable: %w", redact(o.URL), oneLine(err))
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if err := s.checkPolicy(ctx, o, logf); err != nil {
		_ = s.pool.Close()
		return nil, err
	}
	return s, nil
}

// do runs call on a pooled connection. A failure of the connection itself
// (not a Redis error reply, not a missing value, not the context) closes it
// and runs call once more on another: the server may have closed an idle
// pooled connection. A timeout is not tried again: the server hangs. A
// call waits at most s.wait for a connection: while the server hangs every
// connection is held for up to two timeouts, and calls queued behind them
// would otherwise wait for all the calls ahead.
func (s *Store) do(ctx context.Context, call func(context.Context, redis.Conn) (any, error)) (any, error) {
	var reply any
	var err error
	for range 2 {
		var cn redis.Conn
		if cn, err = s.take(ctx); err != nil {
			return nil, err
		}
		reply, err = call(ctx, cn)
		_ = cn.Close() // back to the pool, or closed when it failed
		var rerr redis.Error
		var nerr net.Error
		if err == nil || errors.As(err, &rerr) || errors.Is(err, redis.ErrNil) || ctx.Err() != nil ||
			errors.As(err, &nerr) && nerr.Timeout() { // a hung server: another try would wait as long
			break
		}
	}
	return reply, err
}

// take takes a pooled connection (dialing one if needed) within s.wait.
func (s *Store) take(ctx context.Context) (redis.Conn, error) {
	wctx, cancel := context.WithTimeout(ctx, s.wait)
	defer cancel()
	cn, err := s.pool.GetContext(wctx)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("no connection within %s (pool_size %d, all busy)", s.wait, s.size)
	}
	return cn, err
}

// script runs sc with keys and args.
func (s *Store) script(ctx context.Context, sc *redis.Script, keys []string, args ...any) (any, error) {
	all := make([]any, 0, 1+len(keys)+len(args))
	all = append(all, len(keys))
	for _, k := range keys {
		all = append(all, k)
	}
	all = append(all, args...)
	return s.do(ctx, func(ctx context.Context, cn redis.Conn) (any, error) { return sc.DoContext(ctx, cn, all...) })
}

// PutOriginal keeps caller's original content of id for OriginalTTL,
// under the key gateway.OriginalKey(caller, id) (caller is a hash, never
// an API key).
func (s *Store) PutOriginal(ctx context.Context, caller, id, content string) error {
	return s.put(ctx, "o", "put original", gateway.OriginalKey(caller, id), len(caller)+len(id), content, s.opts.OriginalTTL)
}

// Original returns caller's original content of id, if it has not
// expired; another caller's is missing.
func (s *Store) Original(ctx context.Context, caller, id string) (string, bool, error) {
	return s.get(ctx, "o", "get original", gateway.OriginalKey(caller, id))
}

// PutCompressed keeps the compressed text of id for CompressedTTL.
func (s *Store) PutCompressed(ctx context.Context, id, text string) error {
	return s.put(ctx, "c", "put compressed", id, len(id), text, s.opts.CompressedTTL)
}

// Compressed returns the compressed text of id, if it has not expired.
func (s *Store) Compressed(ctx context.Context, id string) (string, bool, error) {
	return s.get(ctx, "c", "get compressed", id)
}

// Stats reports the live entries of each kind and their bytes, for every
// replica sharing the prefix, after dropping the expired ones, and, when
// Redis evicted keys since this store's last Stats, every entry it evicted.
func (s *Store) Stats(ctx context.Context) (gateway.StoreStats, error) {
	if err := ctx.Err(); err != nil {
		return gateway.StoreStats{}, fmt.Errorf("redisstore: stats: %w", err)
	}
	last := ""
	if n := s.evicted.Load(); n >= 0 {
		last = strconv.FormatInt(n, 10)
	}
	res, err := redis.Int64s(s.script(ctx, statsScript, s.scriptKeys(""), s.prefix, s.now(), last))
	if err == nil && len(res) != 4 {
		err = fmt.Errorf("unexpected reply %v", res)
	}
	if err != nil {
		return gateway.StoreStats{}, fmt.Errorf("redisstore: stats: %w", oneLine(err))
	}
	s.evicted.Store(res[3])
	return gateway.StoreStats{Originals: int(res[0]), Compressed: int(res[1]), Bytes: res[2]}, nil
}

// Close closes the connections to the server.
func (s *Store) Close() error {
	if err := s.pool.Close(); err != nil {
		return fmt.Errorf("redisstore: close: %w", err)
	}
	return nil
}

// put keeps value under key (the member of the kind's index), counting
// keyBytes+len(value) against MaxBytes.
func (s *Store) put(ctx context.Context, kind, op, key string, keyBytes int, value string, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("redisstore: %s: %w", op, err)
	}
	now := s.opts.Sources.Time()
	exp := now.Add(ttl).UnixMilli()
	ttlMS := max(ttl.Milliseconds(), 1)
	_, err := s.script(ctx, putScript, s.scriptKeys(kind+":"+key), s.prefix, now.UnixMilli(),
		kind, key, value, exp, ttlMS, s.opts.MaxEntries, s.opts.MaxBytes, keyBytes)
	if err != nil {
		return fmt.Errorf("redisstore: %s: %w", op, oneLine(err))
	}
	return nil
}

func (s *Store) get(ctx context.Context, kind, op, key string) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, fmt.Errorf("redisstore: %s: %w", op, err)
	}
	v, err := redis.String(s.script(ctx, getScript, s.scriptKeys(kind+":"+key), s.prefix, s.now(), kind, key))
	switch {
	case errors.Is(err, redis.ErrNil):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("redisstore: %s: %w", op, oneLine(err))
	}
	return v, true, nil
}

// scriptKeys returns the scripts' KEYS, with KEYS[7] the entry key of
// rest ("o:" and the original's gateway.OriginalKey, or "c:ID") unless
// rest is empty.
func (s *Store) scriptKeys(rest string) []string {
	if rest == "" {
		return s.keys[:6:6]
	}
	keys := append([]string(nil), s.keys...)
	keys[6] = s.prefix + rest
	return keys
}

// now is the logical clock in milliseconds, as the scripts want it.
func (s *Store) now() string { return strconv.FormatInt(s.opts.Sources.Time().UnixMilli(), 10) }
