import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { checkTargetUrl } from '../src/domain/target-url.js';

const rules = { maxLength: 2048, shortBase: 'https://sho.rt' };

function reason(url: unknown, r = rules): string | undefined {
  try {
    checkTargetUrl(url, r);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).kind).toBe('invalid');
    return (e as AppError).fields.url;
  }
}

describe('checkTargetUrl', () => {
  it('accepts http and https URLs, IDNs and percent-escapes included', () => {
    for (const url of [
      'http://example.com',
      'HTTPS://Example.com/a?b=c#d',
      'https://bücher.example/straße?q=ü',
      'https://例え.テスト/パス',
      'https://example.com/a%20b/%E2%9C%93?x=%2F',
      'http://127.0.0.1:8080/s/token',
    ]) {
      expect(reason(url), url).toBeUndefined();
    }
  });

  it('answers the ASCII host name for the loop check', () => {
    expect(checkTargetUrl('https://Bücher.example/x', rules).hostname).toBe('xn--bcher-kva.example');
  });

  it('refuses dangerous and non-http schemes', () => {
    expect(reason('javascript:alert(1)')).toMatch(/javascript: scheme is not allowed/);
    expect(reason('JavaScript://%0aalert(1)')).toMatch(/javascript: scheme/);
    expect(reason('data:text/html,<script>alert(1)</script>')).toMatch(/data: scheme/);
    expect(reason('file:///etc/passwd')).toMatch(/file: scheme/);
    expect(reason('ftp://example.com/x')).toMatch(/http:\/\/ or https:\/\//);
    expect(reason('//example.com/x')).toMatch(/http:\/\/ or https:\/\//);
    expect(reason('http:example.com')).toMatch(/http:\/\/ or https:\/\//);
  });

  it('refuses empty, over-long, spaced and credentialed URLs', () => {
    expect(reason('')).toBe('is required');
    expect(reason(42)).toBe('is required');
    expect(reason(`https://example.com/${'a'.repeat(2048)}`)).toMatch(/at most 2048/);
    expect(reason('https://example.com/a b')).toMatch(/spaces/);
    expect(reason(' https://example.com')).toMatch(/spaces/);
    expect(reason('https://example.com/\u2028')).toMatch(/spaces/);
    expect(reason('https://bank.example@evil.example/')).toMatch(/user name or password/);
    expect(reason('https://exa mple.com')).toMatch(/spaces/);
    expect(reason('https://')).toBe('is not a valid URL');
    expect(reason('https://example.com/\ud800')).toBe('is not valid Unicode');
  });

  it('refuses a raw backslash, which browsers and other parsers read as different hosts', () => {
    expect(reason('https://evil.example\\@bank.example/')).toMatch(/backslash/);
    expect(reason('https://example.com\\foo')).toMatch(/backslash/);
    expect(reason('https://example.com/a?path=C:\\x')).toMatch(/backslash/);
    expect(reason('https://example.com/a?path=C:%5Cx')).toBeUndefined();
  });

  it('refuses links to the short domain itself, however spelled', () => {
    expect(reason('https://sho.rt/abc')).toMatch(/short link domain/);
    expect(reason('http://SHO.RT:80/abc')).toMatch(/short link domain/);
    expect(reason('https://sho.rt./abc')).toMatch(/short link domain/);
    expect(reason('https://sho.rt.example/abc')).toBeUndefined();
  });

  it('compares ports when the short domain names one (local set-ups)', () => {
    const local = { maxLength: 2048, shortBase: 'http://127.0.0.1:8081' };
    expect(reason('http://127.0.0.1:8081/abc', local)).toMatch(/short link domain/);
    expect(reason('http://127.0.0.1:8080/s/x', local)).toBeUndefined();
  });

  it('refuses every loopback spelling of a loopback short domain', () => {
    const local = { maxLength: 2048, shortBase: 'http://127.0.0.1:8081' };
    for (const url of [
      'http://localhost:8081/abc',
      'http://LOCALHOST.:8081/abc',
      'http://app.localhost:8081/abc',
      'http://[::ffff:127.0.0.1]:8081/abc',
      'http://[0:0:0:0:0:ffff:7f00:1]:8081/abc',
      'http://[::1]:8081/abc',
      'http://[::]:8081/abc',
      'http://127.1:8081/abc',
      'http://0x7f.0.0.1:8081/abc',
      'http://2130706433:8081/abc',
      'http://127.8.9.10:8081/abc',
      'http://0.0.0.0:8081/abc',
    ]) {
      expect(reason(url, local), url).toMatch(/short link domain/);
    }
    expect(reason('http://localhost:3000/app', local)).toBeUndefined();
    expect(reason('http://[::ffff:7f00:1]:8081/abc', { maxLength: 2048, shortBase: 'http://localhost:8081' })).toMatch(/short link domain/);
    expect(reason('http://localhost/x')).toBeUndefined(); // sho.rt is not a loopback host
  });
});
