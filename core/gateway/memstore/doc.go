// Package memstore is the in-process gateway.Store, the gateway's default:
// originals and compressed texts in memory, bounded in entries and bytes,
// expiring on the injected clock of gateway.StoreOptions.Sources.
//
// # Contract
//
//   - Originals live for OriginalTTL and compressed texts for CompressedTTL
//     after their put; an entry is gone when now >= put time + TTL. A put of
//     an id already held replaces its value and restarts its TTL.
//   - Active expiry: every Put, lookup and Stats first drops the expired
//     entries of both kinds, so an expired entry never waits for its own
//     lookup and Stats counts live entries only. Each kind has one TTL, so
//     put order is expiry order and the drop works from the front of a
//     queue: O(1) amortized per operation (each entry is dropped once).
//   - Originals are kept per caller: the map key of an original is
//     gateway.OriginalKey(caller, id), so one caller's original of an id is
//     another entry than another caller's, and a lookup by any other caller
//     misses it. Compressed texts are keyed by id alone.
//   - MaxEntries bounds each kind (the originals of every caller together);
//     MaxBytes bounds the bytes of all entries of both kinds, an original
//     counting len(caller)+len(id)+len(value), a compressed text
//     len(id)+len(value). Past either bound
//     the oldest entry goes first (put order, across both kinds for the
//     byte cap). Stats.Bytes is that same sum.
//   - An entry larger than MaxBytes on its own is not kept: Put returns nil,
//     evicts nothing for it, and drops the value the id held before (a
//     lookup never answers with a value older than the last put).
//   - A context already done gives an error wrapping ctx.Err() and changes
//     nothing. Errors start with "memstore: ".
//   - Safe for concurrent use: one mutex; no operation blocks on anything
//     but it.
//
// # Choices where the spec is silent
//
//   - Eviction is first-in first-out, not least-recently-used: a lookup does
//     not refresh an entry. The gateway puts the original again on every
//     cache hit, which does.
//   - MaxBytes counts callers, ids and values (the gateway.Store contract),
//     not the bookkeeping around them. What the store really holds is
//     Held: for each entry the allocations of its key (an original's is
//     gateway.OriginalKey, a few bytes longer than caller and id) and
//     value, as the allocator rounded them up to their size class, and
//     EntryOverhead (160 bytes: the entry, its map slot, string headers).
//     HeapBound is MaxBytes + 368 B x MaxEntries (with the defaults, 256
//     MiB and 10,000 entries per kind, 259.5 MiB). A store from New may
//     hold more than that when its values round up badly (a 32,769-byte
//     value takes 40,960); one from NewBounded evicts the oldest entries
//     to stay within it, so a memory limit taken from HeapBound holds for
//     any sizes. Specs check Held against the live heap the entries add.
//     `toolout gateway serve` uses NewBounded and sets the process's soft
//     memory limit from HeapBound.
//   - The store keeps its own copies of keys and values: a value cut from
//     a larger string (a compressor that answers with the first bytes of
//     its input) would otherwise keep the whole string alive, uncounted,
//     for its TTL. A put of the value an id already holds (the gateway
//     puts the original again on every cache hit) keeps the held copy and
//     copies nothing. TakeOriginal (gateway.OriginalTaker) is the one
//     exception: the caller gives a string made for the call alone, in an
//     allocation of a size it states (the gateway's parse decoding a tool
//     result), and the store keeps it as it is and counts that size; a new
//     200 KB result then costs the gateway one 200 KB allocation fewer.
//   - The clock is read once per operation, under the lock, so put order is
//     the order of the clock readings. Should an injected clock go back, an
//     expired entry behind a live one is still answered as missing; it
//     leaves Stats when it reaches the front of its queue or an entry bound.
//   - Close drops every entry, also while other calls run; the store stays
//     usable and empty.
//   - The queues are written here rather than taken from an expiring-cache
//     library (hashicorp/golang-lru's expirable LRU, for one): those bound
//     one cache by entries and evict least-recently-used, where this store
//     bounds two kinds by one shared byte budget in put order across both,
//     with expiry on an injected clock. A container/list per kind plus a map
//     is what the library would hold anyway.
package memstore
