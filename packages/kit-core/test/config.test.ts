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
});
