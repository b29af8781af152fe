import { defineScript, type Redis, type Script } from '@feedback/kit-stores';
import type { WindowState } from './fixed-window.js';
import type { Tier } from './limits-config.js';

/**
 * One round trip, atomic: checks every tier, then counts the request in all of them only if
 * all have room (fixed-window.ts has the algorithm). The server's clock decides, so gateway
 * processes with skewed clocks still share the same windows.
 * KEYS[i]: a hash {s = window start ms, n = count} per tier. ARGV: cost, then limit and window
 * ms per tier. Reply: admitted (0/1), now ms, then count and window end ms per tier.
 */
const ADMIT_ALL_TIERS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cost = tonumber(ARGV[1])
local counts, starts, fresh = {}, {}, {}
local admitted = 1
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i])
  local win = tonumber(ARGV[2 * i + 1])
  local v = redis.call('HMGET', KEYS[i], 's', 'n')
  local s, c = tonumber(v[1]), tonumber(v[2])
  fresh[i] = false
  if s == nil or c == nil or now >= s + win then s = now; c = 0; fresh[i] = true end
  counts[i] = c
  starts[i] = s
  if c + cost > limit then admitted = 0 end
end
local reply = { admitted, now }
for i = 1, #KEYS do
  local win = tonumber(ARGV[2 * i + 1])
  if admitted == 1 then
    if fresh[i] then
      redis.call('HSET', KEYS[i], 's', starts[i], 'n', cost)
      redis.call('PEXPIREAT', KEYS[i], starts[i] + win)
    else
      redis.call('HINCRBY', KEYS[i], 'n', cost)
    end
    counts[i] = counts[i] + cost
  end
  reply[#reply + 1] = counts[i]
  reply[#reply + 1] = starts[i] + win
end
return reply
`;

export interface RedisDecision {
  admitted: boolean;
  nowMs: number;
  windows: WindowState[];
}

/** The script bound to one client; `keys` and `tiers` are parallel arrays. */
export function redisAdmission(redis: Redis): (keys: string[], tiers: Tier[], cost: number) => Promise<RedisDecision> {
  // defineScript fixes the key count per name; a script per tier count keeps KEYS declared.
  const scripts = new Map<number, Script<number[]>>();
  return async (keys, tiers, cost) => {
    let script = scripts.get(keys.length);
    if (!script) {
      script = defineScript<number[]>(redis, `admitAllTiers${keys.length}`, { numberOfKeys: keys.length, lua: ADMIT_ALL_TIERS });
      scripts.set(keys.length, script);
    }
    const args = [cost, ...tiers.flatMap((t) => [t.limit, t.windowSeconds * 1000])];
    const reply = await script(keys, args);
    const windows: WindowState[] = tiers.map((_, i) => ({ count: Number(reply[2 + 2 * i]), endsAtMs: Number(reply[3 + 2 * i]) }));
    return { admitted: reply[0] === 1, nowMs: Number(reply[1]), windows };
  };
}

/**
 * Reads every tier's window without counting (for "how full is it"): Redis's clock, then start
 * and count per key (-1 when the key has none). Read-only, so a replica may answer it.
 */
const PEEK_TIERS = `
local t = redis.call('TIME')
local reply = { tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) }
for i = 1, #KEYS do
  local v = redis.call('HMGET', KEYS[i], 's', 'n')
  reply[#reply + 1] = tonumber(v[1]) or -1
  reply[#reply + 1] = tonumber(v[2]) or -1
end
return reply
`;

/** Each tier's open window now (count 0 and no end when none is open); `keys` and `tiers` are parallel. */
export function redisPeek(
  redis: Redis,
): (keys: string[], tiers: Tier[]) => Promise<{ nowMs: number; windows: { count: number; endsAtMs: number | null }[] }> {
  const scripts = new Map<number, Script<number[]>>();
  return async (keys, tiers) => {
    let script = scripts.get(keys.length);
    if (!script) {
      script = defineScript<number[]>(redis, `peekTiers${keys.length}`, { numberOfKeys: keys.length, lua: PEEK_TIERS, readOnly: true });
      scripts.set(keys.length, script);
    }
    const reply = await script(keys);
    const nowMs = Number(reply[0]);
    const windows = tiers.map((t, i) => {
      const start = Number(reply[1 + 2 * i]);
      const count = Number(reply[2 + 2 * i]);
      const endsAtMs = start + t.windowSeconds * 1000;
      return start < 0 || count < 0 || nowMs >= endsAtMs ? { count: 0, endsAtMs: null } : { count, endsAtMs };
    });
    return { nowMs, windows };
  };
}
