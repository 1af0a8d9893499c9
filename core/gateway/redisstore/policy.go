package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gomodule/redigo/redis"
)

// maxPolicyBytes bounds the policy name read from the server.
const maxPolicyBytes = 64

// checkPolicy reads the server's maxmemory-policy and refuses one that
// evicts any key (allkeys-lru, allkeys-lfu, allkeys-random) unless allowed:
// Redis would evict the bookkeeping keys along with the entries. A policy
// that cannot be read (CONFIG and INFO both refused) is one warning line.
func (s *Store) checkPolicy(ctx context.Context, o Options, logf func(string, ...any)) error {
	policy, err := s.policy(ctx)
	if err != nil {
		logf("redisstore: %s: cannot read maxmemory-policy (%v); should it be allkeys-*, Redis may evict originals and the store's accounting",
			redact(o.URL), err)
		return nil
	}
	if !strings.HasPrefix(policy, "allkeys-") {
		return nil
	}
	if o.AllowEviction {
		logf("redisstore: %s evicts any key (maxmemory-policy %s), allowed: an original evicted before a marker comes back "+
			"cannot be expanded, and the store repairs its accounting when Redis evicts it", redact(o.URL), policy)
		return nil
	}
	return fmt.Errorf("redisstore: %s evicts any key (maxmemory-policy %s): originals and the store's accounting would be lost; "+
		"use noeviction or volatile-*, or set allow_eviction", redact(o.URL), policy)
}

// policy returns the server's maxmemory-policy: CONFIG GET, else (CONFIG
// renamed away, or refused by an ACL) the INFO memory section.
func (s *Store) policy(ctx context.Context) (string, error) {
	reply, cerr := s.do(ctx, func(ctx context.Context, cn redis.Conn) (any, error) {
		return redis.DoContext(cn, ctx, "CONFIG", "GET", "maxmemory-policy")
	})
	kv, cerr := redis.Strings(reply, cerr)
	if cerr == nil && len(kv) == 2 && kv[0] == "maxmemory-policy" && validPolicy(kv[1]) {
		return kv[1], nil
	}
	if cerr == nil {
		cerr = fmt.Errorf("unexpected reply %q", kv)
	}
	info, ierr := redis.String(s.do(ctx, func(ctx context.Context, cn redis.Conn) (any, error) {
		return redis.DoContext(cn, ctx, "INFO", "memory")
	}))
	if ierr == nil {
		if p, ok := infoPolicy(info); ok {
			return p, nil
		}
		ierr = errors.New("no maxmemory_policy field")
	}
	return "", fmt.Errorf("CONFIG GET: %w; INFO memory: %w", oneLine(cerr), oneLine(ierr))
}

// infoPolicy returns the maxmemory_policy field of an INFO reply (lines of
// "field:value", ended by CRLF or LF; "#" lines name sections). The value
// must be a policy name: at most 64 bytes of lowercase letters and "-".
func infoPolicy(info string) (string, bool) {
	for line := range strings.Lines(info) {
		v, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "maxmemory_policy:")
		if ok {
			return v, validPolicy(v)
		}
	}
	return "", false
}

// validPolicy reports whether p looks like a policy name.
func validPolicy(p string) bool {
	if p == "" || len(p) > maxPolicyBytes {
		return false
	}
	for _, c := range []byte(p) {
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}
