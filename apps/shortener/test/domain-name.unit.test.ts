import { describe, expect, it } from 'vitest';
import { normalizeDomainName } from '../src/domain/domain-name.js';

describe('normalizeDomainName', () => {
  it('lower-cases and turns IDNs into their ASCII form', () => {
    expect(normalizeDomainName('Go.Example.COM')).toBe('go.example.com');
    expect(normalizeDomainName('kısa.örnek.com')).toBe('xn--ksa-jua.xn--rnek-4qa.com');
    expect(normalizeDomainName('go.example.com.')).toBe('go.example.com');
  });

  it('refuses anything but a bare host name', () => {
    for (const bad of [
      '',
      ' ',
      'localhost',
      'https://go.example.com',
      'go.example.com/x',
      'go.example.com:443',
      '10.0.0.1',
      'a..b.com',
      '-a.example.com',
      'a b.com',
      'user@go.example.com',
      42,
    ]) {
      expect(() => normalizeDomainName(bad), String(bad)).toThrow();
    }
  });
});
