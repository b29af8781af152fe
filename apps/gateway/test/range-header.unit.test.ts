import { describe, expect, it } from 'vitest';
import { parseRangeHeader } from '../src/api/files/range-header.js';

describe('parseRangeHeader', () => {
  it('reads one byte range in its three forms', () => {
    expect(parseRangeHeader('bytes=0-99')).toEqual({ first: 0, last: 99 });
    expect(parseRangeHeader('bytes=100-')).toEqual({ first: 100 });
    expect(parseRangeHeader('bytes=-500')).toEqual({ suffixLength: 500 });
    expect(parseRangeHeader(' bytes = 5 - 6 ')).toEqual({ first: 5, last: 6 });
  });

  it('ignores what it may ignore: none, several ranges, other units, garbage', () => {
    for (const h of [undefined, '', 'bytes=-', 'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b', 'bytes=1234567890123456-']) {
      expect(parseRangeHeader(h)).toBeUndefined();
    }
  });
});
