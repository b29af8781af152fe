import { describe, expect, it } from 'vitest';
import { resolveRange } from '../src/domain/byte-range.js';
import { resolveContentType } from '../src/domain/content-type.js';
import { normalizeDirectoryName } from '../src/domain/directory.js';
import { sanitizeFilename } from '../src/domain/filename.js';

describe('sanitizeFilename', () => {
  it('keeps ordinary names as they are, spaces and non-Latin letters included', () => {
    for (const name of ['customers.csv', 'Müşteri listesi (Kasım).xlsx', '.env', 'a b  c.txt', '顧客.csv'])
      expect(sanitizeFilename(name)).toBe(name);
  });

  it('keeps only the last path segment, so no name can climb out of anything', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\ayse\\list.csv')).toBe('list.csv');
    expect(sanitizeFilename('/abs/path/x.csv')).toBe('x.csv');
  });

  it('drops control and bidirectional-override characters', () => {
    expect(sanitizeFilename('in\u0000voice\r\n.pdf')).toBe('invoice.pdf');
    expect(sanitizeFilename('report\u202Egpj.exe')).toBe('reportgpj.exe');
  });

  it('refuses names that are empty, dots only, or too long', () => {
    for (const bad of ['', '   ', '.', '..', 'dir/', '\u0001\u0002', 'x'.repeat(201)]) {
      expect(() => sanitizeFilename(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ kind: 'invalid' }));
    }
    // At most 200 bytes: the public blob URL's last segment (the router's limit) must hold it.
    expect(sanitizeFilename('x'.repeat(200))).toHaveLength(200);
    expect(sanitizeFilename('ş'.repeat(100))).toHaveLength(100); // 200 bytes
    expect(() => sanitizeFilename('ş'.repeat(101))).toThrow(/An error occured/);
  });
});

describe('normalizeDirectoryName', () => {
  it('trims and refuses empty, long and control-character names', () => {
    expect(normalizeDirectoryName('  inbox ')).toBe('inbox');
    for (const bad of ['', '  ', 'a'.repeat(201), 'tab\there']) {
      expect(() => normalizeDirectoryName(bad)).toThrow(expect.objectContaining({ kind: 'invalid', fields: { name: expect.any(String) } }));
    }
  });
});

describe('resolveContentType', () => {
  it('takes a specific declared type, else guesses from the names, else octet-stream', () => {
    expect(resolveContentType('text/csv; charset=utf-8', 'x.bin')).toBe('text/csv; charset=utf-8');
    expect(resolveContentType('application/octet-stream', 'list.CSV')).toBe('text/csv');
    expect(resolveContentType('', 'noext', 'original.pdf')).toBe('application/pdf');
    expect(resolveContentType('not a type', 'x.unknown')).toBe('application/octet-stream');
    expect(resolveContentType('text/html\r\nX-Injected: 1', 'a.txt')).toBe('text/plain');
  });
});

describe('resolveRange', () => {
  it('resolves first-last, open-ended and suffix ranges against the size', () => {
    expect(resolveRange(100, undefined)).toEqual({ offset: 0, length: 100, partial: false });
    expect(resolveRange(100, { first: 10, last: 19 })).toEqual({ offset: 10, length: 10, partial: true });
    expect(resolveRange(100, { first: 90 })).toEqual({ offset: 90, length: 10, partial: true });
    expect(resolveRange(100, { first: 90, last: 500 })).toEqual({ offset: 90, length: 10, partial: true });
    expect(resolveRange(100, { suffixLength: 5 })).toEqual({ offset: 95, length: 5, partial: true });
    expect(resolveRange(100, { suffixLength: 500 })).toEqual({ offset: 0, length: 100, partial: true });
  });

  it('answers not satisfiable outside the object', () => {
    expect(resolveRange(100, { first: 100 })).toBe('not_satisfiable');
    expect(resolveRange(100, { first: 5, last: 4 })).toBe('not_satisfiable');
    expect(resolveRange(100, { suffixLength: 0 })).toBe('not_satisfiable');
    expect(resolveRange(0, { first: 0 })).toBe('not_satisfiable');
  });
});
