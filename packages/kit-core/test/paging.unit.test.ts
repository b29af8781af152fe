import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError, decodePageToken, encodePageToken, pageOf, pageQueryOf, pageSizeOf, type PageKey } from '../src/index.js';

const key: PageKey = { at: new Date('2026-11-28T08:00:00.123Z'), id: 'd-0042' };
const rejected = (list: string, token: string) => {
  try {
    decodePageToken(list, token);
  } catch (err) {
    return err instanceof AppError ? { kind: err.kind, fields: err.fields } : err;
  }
  return 'accepted';
};
const refusal = { kind: 'invalid', fields: { page_token: 'is not a page token of this list' } };

describe('page tokens', () => {
  it('give back the key they were made of, for the list that made them', () => {
    const token = encodePageToken('deliveries', key);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken('deliveries', token)).toEqual(key);
    // An id with the separators a composite key may hold, and the epoch itself.
    const odd = { at: new Date(0), id: 'acc:905321234567|x' };
    expect(decodePageToken('opt_outs', encodePageToken('opt_outs', odd))).toEqual(odd);
  });

  it("refuse another list's token", () => {
    expect(rejected('endpoints', encodePageToken('deliveries', key))).toEqual(refusal);
  });

  it('refuse a token edited by hand, garbage, and the formats that came before', () => {
    const token = encodePageToken('deliveries', key);
    const body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [string, string];
    const moved = JSON.stringify({ ...JSON.parse(body[0]), t: key.at.getTime() - 1 });
    const tampered = Buffer.from(JSON.stringify([moved, body[1]])).toString('base64url');
    const flipped = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    for (const bad of [
      tampered,
      flipped,
      'bm9wZQ', // "nope"
      'not a token!',
      '%%%',
      'x'.repeat(2_000),
      Buffer.from(JSON.stringify([key.at.getTime(), key.id])).toString('base64url'), // messaging's old cursor
      Buffer.from(`${key.at.getTime()}:${key.id}`).toString('base64url'), // webhooks' old cursor
      Buffer.from(JSON.stringify({ k: `${key.at.toISOString()}|${key.id}` })).toString('base64url'), // responses' old token
    ]) {
      expect(rejected('deliveries', bad), bad).toEqual(refusal);
    }
  });

  it('refuse a token of another version, though its check holds', () => {
    const body = JSON.stringify({ v: 2, l: 'deliveries', t: key.at.getTime(), i: key.id });
    const check = JSON.parse(Buffer.from(encodePageToken('deliveries', key), 'base64url').toString('utf8'))[1] as string;
    expect(check).toHaveLength(8);
    // The version is inside the checked body, so a v2 token can carry a check that holds.
    const v2 = Buffer.from(JSON.stringify([body, createHash('sha256').update(body).digest('base64url').slice(0, 8)])).toString('base64url');
    expect(rejected('deliveries', v2)).toEqual(refusal);
  });
});

describe('page sizes', () => {
  const lenient = { list: 'l', default: 50, max: 200 };
  const strict = { ...lenient, strict: true };

  it('default when unset and clamp into 1-max', () => {
    expect(pageSizeOf(0, lenient)).toBe(50);
    expect(pageSizeOf(undefined, lenient)).toBe(50);
    expect(pageSizeOf(1, lenient)).toBe(1);
    expect(pageSizeOf(200, lenient)).toBe(200);
    expect(pageSizeOf(201, lenient)).toBe(200);
    expect(pageSizeOf(-3, lenient)).toBe(50);
  });

  it('refuse a size outside 1-max naming page_size when the list is strict', () => {
    expect(pageSizeOf(0, strict)).toBe(50);
    expect(pageSizeOf(200, strict)).toBe(200);
    for (const bad of [201, -1, 2.5]) expect(() => pageSizeOf(bad, strict)).toThrow(AppError);
    expect(() => pageSizeOf(201, strict)).toThrowError(expect.objectContaining({ fields: { page_size: 'must be 1-200' } }));
  });

  it('check the size and then the token of a request', () => {
    expect(pageQueryOf({ pageSize: 0, pageToken: '' }, strict)).toEqual({ list: 'l', size: 50, after: null });
    expect(pageQueryOf({ pageSize: 5, pageToken: encodePageToken('l', key) }, strict)).toEqual({ list: 'l', size: 5, after: key });
    expect(() => pageQueryOf({ pageSize: 5, pageToken: 'bm9wZQ' }, strict)).toThrowError(
      expect.objectContaining({ fields: { page_token: 'is not a page token of this list' } }),
    );
  });
});

describe('a page of items in memory', () => {
  it('pages newest first, ties by id, through every item once', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 8, 0, s));
    const items = [
      { id: 'a', at: at(1) },
      { id: 'c', at: at(2) },
      { id: 'b', at: at(2) },
      { id: 'd', at: at(2) },
      { id: 'e', at: at(0) },
    ];
    const seen: string[] = [];
    let token = '';
    do {
      const page = pageOf(items, pageQueryOf({ pageSize: 2, pageToken: token }, { list: 'l', default: 50, max: 2 }), (i) => i);
      seen.push(...page.items.map((i) => i.id));
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual(['d', 'c', 'b', 'a', 'e']);
  });
});
