import { describe, expect, it } from 'vitest';
import { ConfigError, env, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  const shape = { PORT: env.port(8080), MONGO_URL: env.string(), DEBUG: env.bool(false), TIERS: env.list('a,b') };

  it('parses and applies defaults', () => {
    const cfg = loadConfig(shape, { MONGO_URL: 'mongodb://x', DEBUG: 'yes' });
    expect(cfg).toEqual({ PORT: 8080, MONGO_URL: 'mongodb://x', DEBUG: true, TIERS: ['a', 'b'] });
  });

  it('fails fast naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig(shape, { PORT: 'eighty' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toMatch(/PORT/);
    expect(String((error as Error).message)).toMatch(/MONGO_URL/);
  });

  it('takes a 256-bit key in base64 or base64url, and nothing of another length', () => {
    const key = Buffer.alloc(32, 0xfb);
    const shape = { KEY: env.key32() };
    expect(loadConfig(shape, { KEY: key.toString('base64') }).KEY).toEqual(key);
    expect(loadConfig(shape, { KEY: key.toString('base64url') }).KEY).toEqual(key);
    for (const bad of [Buffer.alloc(31).toString('base64'), Buffer.alloc(33).toString('base64'), `${'a'.repeat(42)}!`])
      expect(() => loadConfig(shape, { KEY: bad }), bad).toThrow(/KEY.*32 bytes/);
  });
});
