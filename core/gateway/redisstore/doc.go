// Package redisstore is a gateway.Store on Redis (the redigo client), shared by
// every gateway replica that uses the same server and key prefix: a result
// compressed through one replica can be expanded through another, and the
// bounds hold for all of them together.
//
// # Contract
//
// The same as every gateway.Store (toolouttest.CheckStore runs the contract
// against both backends): originals, kept per caller (another caller's
// lookup misses them), live for OriginalTTL and compressed texts for
// CompressedTTL on the injected clock; a put of an id held
// replaces it, restarts its TTL and counts its bytes once; MaxEntries bounds
// each kind and MaxBytes the len(caller)+len(id)+len(value) of originals and
// len(id)+len(value) of compressed texts together, the oldest
// entry going first; an entry larger than MaxBytes alone is not kept (Put
// returns nil) and the id's old value is dropped; expired entries are
// dropped on every Put, lookup and Stats. Every call honours its context (a
// done context is an error wrapping ctx.Err(), sent nothing; a deadline
// bounds the network wait), and every error starts with "redisstore: ". New
// pings the server and fails with one line naming the URL, password hidden.
//
// # Key layout
//
// With PREFIX the Options.Prefix ("toolout:" by default):
//
//	PREFIX o:N:CALLER:ID  hash {v: original, e: logical expiry, Unix ms}, PEXPIRE OriginalTTL
//	PREFIX c:ID           hash {v: compressed text, e: ...},              PEXPIRE CompressedTTL
//	PREFIX idx:o          sorted set of N:CALLER:ID, scored by put sequence
//	PREFIX idx:c          sorted set of compressed ids, the same
//	PREFIX size:o         hash N:CALLER:ID -> len(CALLER)+len(ID)+len(value), for the byte counter
//	PREFIX size:c         hash id -> len(id)+len(value)
//	PREFIX bytes          the byte count of both kinds
//	PREFIX seq            the put sequence, shared by both kinds
//
// N:CALLER:ID is gateway.OriginalKey: N the length of CALLER in decimal, so
// no caller and id can spell another's key. CALLER is what gateway.Identity
// makes of a request (32 hex digits of an HMAC-SHA256 of its API key or
// identity header; empty for the anonymous caller, as in "o:0::shadow_…"):
// Redis never holds a key or header value in clear. Keys of the older per-id
// layout (PREFIX o:ID) are never read; they leave, with their bytes, at
// their expiry.
//
// # How the bounds are kept
//
// Three Lua scripts (EVALSHA, loaded on first use) do all the work, each
// atomically on the server. Every script first purges: from the front of
// each kind's index, it drops entries whose logical expiry is past and
// entries Redis already removed on its own, subtracting their bytes. A put
// then drops the id's old entry, adds the new one, and evicts from the front
// of its kind while past MaxEntries and, while past MaxBytes, the older of
// the two fronts (put sequence). Each entry is dropped once, so the work is
// O(log n) amortized per call. A lookup treats an entry whose logical expiry
// has passed as missing, so specs can drive expiry with a fake clock.
//
// Before the purge, every script checks the bookkeeping keys (seven reads)
// and repairs what Redis evicted or someone deleted: an index gone takes the
// entries it listed with it (their put order is lost), a sizes hash gone is
// measured again from the entries, a byte counter gone, negative or off with
// no entry left is summed again from the sizes, and a sequence gone or
// behind restarts after the newest put. So the counter is never negative and
// the byte bound holds again from the next call. A lookup that finds its
// entry gone drops its index entry and bytes, and Stats, when the server's
// evicted_keys moved since this store's last Stats (or INFO is refused),
// sweeps every entry for those Redis evicted anywhere in put order (EXISTS
// each, O(entries); a replica's first Stats sweeps too), so it never counts
// an entry a lookup would not find.
//
// # Choices where the spec is silent
//
//   - Two clocks. The logical expiry follows StoreOptions.Sources (the
//     contract), and each entry key also carries a Redis PEXPIRE of its TTL
//     on the real clock, so Redis drops it on its own even when no gateway
//     runs. An entry is gone when either says so.
//   - Eviction is first-in first-out by put (the gateway re-puts an
//     original on every cache hit, which refreshes it); lookups do not
//     refresh.
//   - Replicas sharing a prefix must share the store options: each put
//     applies the caller's TTL and bounds. They should share a clock too
//     (production: the wall clock); one that runs behind treats entries as
//     live longer, bounded by PEXPIRE.
//   - The eviction policy. New reads maxmemory-policy (CONFIG GET, else the
//     maxmemory_policy field of INFO memory, else one warning line through
//     Options.Logf and on) and refuses allkeys-lru, allkeys-lfu and
//     allkeys-random in one line naming the URL and the policy, unless
//     Options.AllowEviction (store.allow_eviction in the gateway's config):
//     such a server evicts the bookkeeping keys as readily as entries, and
//     an original evicted before its marker comes back cannot be expanded.
//     noeviction and volatile-* are accepted: entry keys carry PEXPIRE and
//     the bookkeeping keys none, so volatile-* evicts entries only (a spec
//     checks it under real pressure). The policy is read at New only, and
//     refused whatever maxmemory is: CONFIG SET can change either later.
//     Allowed, the repairs above keep the accounting true; within a request,
//     the gateway expands what it compressed from the request itself.
//   - A full noeviction server refuses a put with its OOM error (the put's
//     first write is a deny-oom INCRBY, since Redis checks a script only at
//     its first write); the gateway passes the result through, logs
//     "store failed: ... OOM command not allowed", and counts it
//     (store_failures_total). Lookups and Stats still run: their first
//     write, if any, is a ZREM, which frees memory.
//   - One Redis server (or a primary with replicas), not Redis Cluster: the
//     scripts touch the keys of evicted ids, which they cannot declare.
//   - Timeouts: Options, else the URL's query (dial_timeout, read_timeout,
//     write_timeout: a duration such as 500ms, or whole seconds), else 2s
//     each; pool_size in the query caps the connections (10 per CPU by
//     default), and a call past it waits for one, bounded by its context.
//     Any other query option is refused, so a typo does not pass silently.
//     A store failure only makes the gateway pass a result through, so
//     calls fail fast: one dial attempt, and one retry of a command whose
//     connection failed (not of a Redis error reply, not of a timeout: a
//     server that hangs would hang the retry too). A script run again by
//     the retry is harmless: a put replaces, a lookup and Stats only
//     expire.
//   - A call waits at most the dial timeout for a pooled connection, then
//     fails with "no connection within 2s (pool_size N, all busy)". While
//     the server hangs every connection is held for a read timeout, and
//     without this bound calls queued behind them would wait for all the
//     calls ahead. So a call ends within the dial timeout (the wait) plus
//     one dial or one read+write timeout: 4 s by default on a hung server; a
//     stopped one refuses the dial at once.
//   - The client is redigo, not go-redis: the store needs a connection pool,
//     EVALSHA and contexts, which both give, and redigo is a small fraction
//     of go-redis's compile time under the race detector, which a cold `make
//     test` pays.
package redisstore
