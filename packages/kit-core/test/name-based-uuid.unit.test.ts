import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nameBasedUuid } from '../src/index.js';

describe('name-based UUIDs', () => {
  it('gives the same id for the same name and another for another, with the version and variant bits set', () => {
    const a = nameBasedUuid('acc\nkey-1');
    expect(nameBasedUuid('acc\nkey-1')).toBe(a);
    expect(nameBasedUuid('acc\nkey-2')).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedUuid('x', 'sha1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('is the hash with only the version and variant bits replaced (RFC 9562)', () => {
    const h = createHash('sha256').update('name').digest('hex');
    const id = nameBasedUuid('name').replaceAll('-', '');
    expect(id.slice(0, 12)).toBe(h.slice(0, 12));
    expect(id.slice(13, 16)).toBe(h.slice(13, 16));
    expect(id.slice(17, 32)).toBe(h.slice(17, 32));
  });
});
