import { describe, expect, it } from 'vitest';
import { asciiLocation } from '../src/links/redirect.views.js';

describe('asciiLocation', () => {
  it('leaves ASCII URLs byte for byte, escapes included', () => {
    for (const url of [
      'https://example.com/a%2Fb?q=%E2%9C%93&x=1#Frag',
      'http://127.0.0.1:8080/s/tok',
      "https://example.com/~user/a;b,c!*'()",
    ]) {
      expect(asciiLocation(url)).toBe(url);
    }
  });

  it('turns an IDN host into its xn-- form and escapes other non-ASCII as UTF-8', () => {
    expect(asciiLocation('https://bücher.example/straße?q=ü#ß')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC#%C3%9F');
    expect(asciiLocation('https://例え.テスト:8443/パス')).toBe('https://xn--r8jz45g.xn--zckzah:8443/%E3%83%91%E3%82%B9');
    expect(asciiLocation('https://example.com/%E2%9C%93✓')).toBe('https://example.com/%E2%9C%93%E2%9C%93');
  });

  it('keeps emoji (astral characters) as one escape each', () => {
    expect(asciiLocation('https://example.com/😀')).toBe('https://example.com/%F0%9F%98%80');
  });
});
