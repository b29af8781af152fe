import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, loneSurrogatePath } from '../src/index.js';

describe('lone surrogates', () => {
  it('tells a lone half from a pair', () => {
    expect(hasLoneSurrogate('a\ud83d\ude00b')).toBe(false);
    for (const s of ['\ud800', 'x\udc00', '\ude00\ud83d', 'https://example.com/\ud800'])
      expect(hasLoneSurrogate(s), JSON.stringify(s)).toBe(true);
  });

  it('names the field of a parsed JSON body that holds one', () => {
    expect(loneSurrogatePath(JSON.parse('{"name": "sur\\udc00"}'))).toBe('.name');
    expect(loneSurrogatePath(JSON.parse('{"q": [{"t": "ok"}, {"t": "\\ud800"}]}'))).toBe('.q[1].t');
    expect(loneSurrogatePath(JSON.parse('{"a\\ud800": 1}'))).toBe('.a\ufffd');
    expect(loneSurrogatePath(JSON.parse('{"ok": "\\ud83d\\ude00", "n": 1, "z": null}'))).toBeUndefined();
    expect(loneSurrogatePath('\ud800')).toBe('');
  });
});
