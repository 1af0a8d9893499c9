package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

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
	// with go-redis's query options (dial_timeout, pool_size, ...).
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
}

// Store is a gateway.Store on a Redis server. It is safe for concurrent
// use, by goroutines and by processes sharing the server and the prefix.
type Store struct {
	client *redis.Client
	opts   gateway.StoreOptions
	prefix string
	keys   []string // the fixed KEYS of the scripts, KEYS[7] left to fill
}

var _ gateway.Store = (*Store)(nil)

// New connects to o.URL and checks the server answers PING. A bad URL or an
// unreachable server is a one-line error naming the URL, its password
// hidden.
func New(ctx context.Context, o Options) (*Store, error) {
	ro, err := parseURL(o.URL)
	if err != nil {
		return nil, err
	}
	ro.DialTimeout = timeout(o.DialTimeout, ro.DialTimeout)
	ro.ReadTimeout = timeout(o.ReadTimeout, ro.ReadTimeout)
	ro.WriteTimeout = timeout(o.WriteTimeout, ro.WriteTimeout)
	if ro.MaxRetries == 0 {
		ro.MaxRetries = 1 // one retry: a pooled connection the server closed
	}
	ro.DialerRetries = 1            // fail fast: the gateway passes through
	ro.ContextTimeoutEnabled = true // a context's deadline bounds a call too
	ro.DisableIdentity = true       // no CLIENT SETINFO on connect
	prefix := o.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	s := &Store{client: redis.NewClient(ro), opts: o.Store.WithDefaults(), prefix: prefix}
	s.keys = []string{prefix + "bytes", prefix + "seq", prefix + "idx:o", prefix + "idx:c",
		prefix + "size:o", prefix + "size:c", ""}
	if err := s.client.Ping(ctx).Err(); err != nil {
		_ = s.client.Close()
		return nil, fmt.Errorf("redisstore: %s unreachable: %w", redact(o.URL), oneLine(err))
	}
	return s, nil
}

// parseURL reads a Redis URL, with errors that never show its password.
func parseURL(raw string) (*redis.Options, error) {
	if raw == "" {
		return nil, errors.New("redisstore: no URL (want redis://HOST:PORT/DB)")
	}
	ro, err := redis.ParseURL(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text would repeat the URL, password and all
		}
		return nil, fmt.Errorf("redisstore: bad URL %q: %w", redact(raw), oneLine(err))
	}
	return ro, nil
}

func timeout(opt, fromURL time.Duration) time.Duration {
	switch {
	case opt > 0:
		return opt
	case fromURL != 0:
		return fromURL
	}
	return DefaultTimeout
}

// redact hides the password of a URL, even one that does not parse.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	at := strings.LastIndex(raw, "@")
	if at < 0 {
		return raw
	}
	start := strings.Index(raw, "://") + len("://")
	if start < len("://") || start > at {
		start = 0
	}
	return raw[:start] + "xxxxx" + raw[at:]
}

// oneLine keeps err's chain for errors.Is and flattens its text.
func oneLine(err error) error {
	if msg := err.Error(); strings.ContainsAny(msg, "\r\n") {
		return &flatError{msg: strings.Join(strings.Fields(msg), " "), err: err}
	}
	return err
}

type flatError struct {
	msg string
	err error
}

func (e *flatError) Error() string { return e.msg }
func (e *flatError) Unwrap() error { return e.err }

// PutOriginal keeps the original content of id for OriginalTTL.
func (s *Store) PutOriginal(ctx context.Context, id, content string) error {
	return s.put(ctx, "o", "put original", id, content, s.opts.OriginalTTL)
}

// Original returns the original content of id, if it has not expired.
func (s *Store) Original(ctx context.Context, id string) (string, bool, error) {
	return s.get(ctx, "o", "get original", id)
}

// PutCompressed keeps the compressed text of id for CompressedTTL.
func (s *Store) PutCompressed(ctx context.Context, id, text string) error {
	return s.put(ctx, "c", "put compressed", id, text, s.opts.CompressedTTL)
}

// Compressed returns the compressed text of id, if it has not expired.
func (s *Store) Compressed(ctx context.Context, id string) (string, bool, error) {
	return s.get(ctx, "c", "get compressed", id)
}

// Stats reports the live entries of each kind and their bytes, for every
// replica sharing the prefix, after dropping the expired ones.
func (s *Store) Stats(ctx context.Context) (gateway.StoreStats, error) {
	if err := ctx.Err(); err != nil {
		return gateway.StoreStats{}, fmt.Errorf("redisstore: stats: %w", err)
	}
	res, err := statsScript.Run(ctx, s.client, s.scriptKeys(""), s.prefix, s.now()).Int64Slice()
	if err == nil && len(res) != 3 {
		err = fmt.Errorf("unexpected reply %v", res)
	}
	if err != nil {
		return gateway.StoreStats{}, fmt.Errorf("redisstore: stats: %w", oneLine(err))
	}
	return gateway.StoreStats{Originals: int(res[0]), Compressed: int(res[1]), Bytes: res[2]}, nil
}

// Close closes the connections to the server.
func (s *Store) Close() error {
	if err := s.client.Close(); err != nil {
		return fmt.Errorf("redisstore: close: %w", err)
	}
	return nil
}

func (s *Store) put(ctx context.Context, kind, op, id, value string, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("redisstore: %s: %w", op, err)
	}
	now := s.opts.Sources.Time()
	exp := now.Add(ttl).UnixMilli()
	ttlMS := max(ttl.Milliseconds(), 1)
	err := putScript.Run(ctx, s.client, s.scriptKeys(kind+":"+id), s.prefix, now.UnixMilli(),
		kind, id, value, exp, ttlMS, s.opts.MaxEntries, s.opts.MaxBytes).Err()
	if err != nil {
		return fmt.Errorf("redisstore: %s: %w", op, oneLine(err))
	}
	return nil
}

func (s *Store) get(ctx context.Context, kind, op, id string) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, fmt.Errorf("redisstore: %s: %w", op, err)
	}
	v, err := getScript.Run(ctx, s.client, s.scriptKeys(kind+":"+id), s.prefix, s.now(), kind, id).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("redisstore: %s: %w", op, oneLine(err))
	}
	return v, true, nil
}

// scriptKeys returns the scripts' KEYS, with KEYS[7] the entry key of
// rest ("o:ID" or "c:ID") unless rest is empty.
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
