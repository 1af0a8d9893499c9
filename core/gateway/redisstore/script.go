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

-- counted is the bytes an entry of id counts beside its value: the
-- shadow id and the caller of an original (its id is gateway.OriginalKey:
-- the caller's length, ":", the caller, ":", the shadow id), the id of a
-- compressed text.
local function counted(kind, id)
  if kind == "c" then return #id end
  local n = string.match(id, "^%d+:") or ""
  return #id - #n - 1
end

-- recount sets the byte counter to the sum of the sizes.
local function recount()
  local total = 0
  for _, kind in ipairs({"o", "c"}) do
    for _, v in ipairs(redis.call("HVALS", sizes[kind])) do total = total + tonumber(v) end
  end
  redis.call("SET", bytesKey, total)
end

-- repair restores the bookkeeping keys, which carry no TTL, after Redis
-- evicted one (an allkeys-* policy, allowed) or someone deleted it: an
-- index gone takes its entries with it (their put order is lost), sizes
-- gone are measured again from the entries, a counter gone, negative, or
-- off with no sizes left is summed again, and a sequence gone or behind
-- restarts after the newest put. Seven reads when nothing is missing.
local function repair()
  local fixed = false
  for _, kind in ipairs({"o", "c"}) do
    local hasIdx, hasSizes = redis.call("EXISTS", idx[kind]) == 1, redis.call("EXISTS", sizes[kind]) == 1
    if hasSizes and not hasIdx then
      for _, id in ipairs(redis.call("HKEYS", sizes[kind])) do redis.call("DEL", P .. kind .. ":" .. id) end
      redis.call("DEL", sizes[kind])
      fixed = true
    elseif hasIdx and not hasSizes then
      for _, id in ipairs(redis.call("ZRANGE", idx[kind], 0, -1)) do
        local key = P .. kind .. ":" .. id
        if redis.call("EXISTS", key) == 1 then
          redis.call("HSET", sizes[kind], id, counted(kind, id) + redis.call("HSTRLEN", key, "v"))
        else
          redis.call("ZREM", idx[kind], id)
        end
      end
      fixed = true
    end
  end
  local b = redis.call("GET", bytesKey)
  local any = redis.call("EXISTS", sizes.o, sizes.c) > 0
  if fixed or (b and (tonumber(b) < 0 or (tonumber(b) > 0 and not any))) or (not b and any) then recount() end
  local top = 0
  for _, kind in ipairs({"o", "c"}) do
    local f = redis.call("ZRANGE", idx[kind], -1, -1, "WITHSCORES")
    if #f > 0 then top = math.max(top, tonumber(f[2])) end
  end
  if tonumber(redis.call("GET", seqKey) or "0") < top then redis.call("SET", seqKey, top) end
end

repair()
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
// checks a script against maxmemory only at its first write and lets every
// later one through, so a put whose first write were drop's ZREM would grow
// a full noeviction server past maxmemory. A put on a full server fails
// with Redis's OOM error instead, and the gateway passes the result through.
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
// missing or expired, or is an orphan: an entry its kind's sizes do not
// name, left when Redis evicted both the index and the sizes of its kind
// (repair cannot see it then), which is deleted, so that a lookup finds
// what Stats counts.
var getScript = redis.NewScript(-1, prelude+`
local r = redis.call("HMGET", KEYS[7], "v", "e")
if r[1] and redis.call("HEXISTS", sizes[ARGV[3]], ARGV[4]) == 0 then
  redis.call("DEL", KEYS[7])
  return false
end
if not r[1] then
  drop(ARGV[3], ARGV[4]) -- Redis evicted it: its index entry and bytes go too
  return false
end
if not r[2] or tonumber(r[2]) <= now then
  drop(ARGV[3], ARGV[4])
  return false
end
return r[1]
`)

// statsScript: ARGV 3 the server's evicted_keys at this replica's last
// sweep ("" for none). Returns {originals, compressed, bytes, evicted_keys
// now (-1 when INFO cannot be read)}. When Redis evicted keys since that
// sweep (or INFO cannot say), it sweeps every entry, not only the fronts:
// an LRU or LFU policy evicts anywhere in put order, and Stats then counts
// what a lookup would find. The sweep reads each entry once (EXISTS), so
// it blocks the server for O(entries), bounded by MaxEntries of each kind:
// it runs at a replica's first Stats and then only after Redis evicted,
// and then sums the counter again from the sizes (O(entries) too).
var statsScript = redis.NewScript(-1, prelude+`
local ok, info = pcall(redis.call, "INFO", "stats")
local evicted = ok and string.match(info, "evicted_keys:(%d+)") or nil
if not evicted or evicted ~= ARGV[3] then
  for _, kind in ipairs({"o", "c"}) do
    for _, id in ipairs(redis.call("ZRANGE", idx[kind], 0, -1)) do
      if redis.call("EXISTS", P .. kind .. ":" .. id) == 0 then drop(kind, id) end
    end
  end
  -- A kind whose index and sizes were both evicted leaves bytes in the
  -- counter that no size names (repair cannot see it); its entries are
  -- orphans that a lookup deletes (getScript).
  recount()
end
return {redis.call("ZCARD", idx.o), redis.call("ZCARD", idx.c), tonumber(redis.call("GET", bytesKey) or "0"),
  tonumber(evicted or "-1")}
`)
