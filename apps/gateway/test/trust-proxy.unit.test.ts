import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../src/http/trust-proxy.js';

describe('parseTrustProxy', () => {
  it('trusts no proxy by default', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('TRUE')).toBe(true);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('turns a hop count into a function over the hop index', () => {
    const trust = parseTrustProxy('1') as (addr: string, hop: number) => boolean;
    expect(trust('10.0.0.1', 0)).toBe(true);
    expect(trust('10.0.0.2', 1)).toBe(false);
  });
});
