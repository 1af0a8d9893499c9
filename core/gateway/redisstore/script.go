package redisstore

import "github.com/gomodule/redigo/redis"

// The scripts keep the entries, the two indexes, the sizes and the byte
// counter consistent: each runs atomically on the server, so replicas
// sharing a prefix share one set of bounds.
//
// KEYS: 1 bytes counter, 2 put sequence, 3 and 4 the index (sorted set, id
// scored by put sequence) of originals and of compressed texts, 5 and 6
// their sizes (hash id -> the bytes the entry counts), 7 the entry (put and
// get). An original's id here is gateway.OriginalKey(caller, shadow id).
// ARGV: 1 prefix, 2 now (logical ms), then the script's own.
//
// Entry keys of other ids (the ones evicted or purged) are built from the
// prefix inside the script, so the scripts need one Redis server (or a
// primary with replicas), not a Redis Cluster.
const prelude = `
local P, now = ARGV[1], tonumber(ARGV[2])
local bytesKey, seqKey = KEYS[1], KEYS[2]
local idx = {o = KEYS[3], c = KEYS[4]}
local sizes = {o = KEYS[5], c = KEYS[6]}

-- drop removes an entry. Its first write is ZREM, which Redis runs when
-- out of memory (it frees some), so the deny-oom DECRBY after it runs too:
-- a lookup on a full noeviction server can still drop what expired.
local function drop(kind, id)
  local size = redis.call("HGET", sizes[kind], id)
  redis.call("ZREM", idx[kind], id)
  redis.call("DEL", P .. kind .. ":" .. id)
  if size then
    redis.call("DECRBY", bytesKey, size)
    redis.call("HDEL", sizes[kind], id)
  end
end

-- front returns the id and put sequence of a kind's oldest entry.
local function front(kind)
  local f = redis.call("ZRANGE", idx[kind], 0, 0, "WITHSCORES")
  if #f == 0 then return nil, nil end
  return f[1], tonumber(f[2])
end

-- purge drops, from the front of a kind's index, the entries expired on the
-- logical clock and those Redis dropped on its own (TTL on the real clock,
-- maxmemory eviction). One TTL per kind: put order is expiry order.
local function purge(kind)
  while true do
    local id = front(kind)
    if not id then return end
    local exp = redis.call("HGET", P .. kind .. ":" .. id, "e")
    if exp and tonumber(exp) > now then return end
    drop(kind, id)
  end
end

purge("o")
purge("c")
`

// putScript: ARGV 3 kind ("o" or "c"), 4 id, 5 value, 6 logical expiry
// (ms), 7 Redis TTL (ms), 8 MaxEntries, 9 MaxBytes, 10 the bytes the id
// counts (len(caller)+len(shadow id) for an original, len(id) for a
// compressed text). Returns 1 when the entry is kept, 0 when it is larger
// than MaxBytes alone (the id's old value is dropped either way).
//
// Its first write is a deny-oom one (INCRBY of the sequence by 0): Redis
// checks a script against maxmemory only at its first write, and lets
// every later one through, so a put that began with the ZREM of a drop
// grew a full noeviction server past maxmemory without an error. Now a put
// on a full server fails with Redis's OOM error, and the gateway passes the
// result through.
var putScript = redis.NewScript(-1, `redis.call("INCRBY", KEYS[2], 0)`+prelude+`
local kind, id, value = ARGV[3], ARGV[4], ARGV[5]
local maxEntries, maxBytes = tonumber(ARGV[8]), tonumber(ARGV[9])
drop(kind, id)
local size = tonumber(ARGV[10]) + #value
if size > maxBytes then return 0 end
local seq = redis.call("INCR", seqKey)
redis.call("HSET", KEYS[7], "v", value, "e", ARGV[6])
redis.call("PEXPIRE", KEYS[7], ARGV[7])
redis.call("ZADD", idx[kind], seq, id)
redis.call("HSET", sizes[kind], id, size)
redis.call("INCRBY", bytesKey, size)
while redis.call("ZCARD", idx[kind]) > maxEntries do
  drop(kind, (front(kind)))
end
while tonumber(redis.call("GET", bytesKey) or "0") > maxBytes do
  local o, so = front("o")
  local c, sc = front("c")
  if not o and not c then
    redis.call("SET", bytesKey, 0) -- the counter drifted (keys removed by hand)
    break
  end
  if not c or (o and so < sc) then drop("o", o) else drop("c", c) end
end
return 1
`)

// getScript: ARGV 3 kind, 4 id. Returns the value, or nil when the entry is
// missing or expired.
var getScript = redis.NewScript(-1, prelude+`
local r = redis.call("HMGET", KEYS[7], "v", "e")
if not r[1] then return false end
if not r[2] or tonumber(r[2]) <= now then
  drop(ARGV[3], ARGV[4])
  return false
end
return r[1]
`)

// statsScript returns {originals, compressed, bytes} after the purge.
var statsScript = redis.NewScript(-1, prelude+`
return {redis.call("ZCARD", idx.o), redis.call("ZCARD", idx.c), tonumber(redis.call("GET", bytesKey) or "0")}
`)
