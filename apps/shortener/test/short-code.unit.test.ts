import { describe, expect, it } from 'vitest';
import { LINK_LIMITS } from '../src/domain/link.js';
import { newShortCode } from '../src/domain/short-code.js';

describe('newShortCode', () => {
  it('draws URL-safe codes of the asked length that do not repeat', () => {
    const codes = Array.from({ length: 10_000 }, () => newShortCode(7));
    expect(codes.every((c) => /^[A-Za-z0-9]{7}$/.test(c) && LINK_LIMITS.codePattern.test(c))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('skips bytes that would bias the alphabet', () => {
    // 248..255 are dropped; 0 → 'A', 61 → '9', 62 → 'A' again.
    const bytes = [255, 248, 0, 61, 62, 250, 1];
    let i = 0;
    const random = (n: number) => Uint8Array.from({ length: n }, () => bytes[i++ % bytes.length]!);
    expect(newShortCode(4, random)).toBe('A9AB');
  });
});
