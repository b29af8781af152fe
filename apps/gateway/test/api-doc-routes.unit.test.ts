import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiListeners, servedDocument } from './openapi-fixture.js';

// docs/api.md is what an integrator reads first: every route either listener's OpenAPI document
// has must be named there, so a route added without its documentation fails here.

const API_MD = readFileSync(resolve(import.meta.dirname, '../../../docs/api.md'), 'utf8');

/** A path with each parameter as `{}`, however the text spells it ({id}, <id>, :id). */
const shape = (path: string) => path.replace(/\{[^}/]+\}|<[^>/]+>|:[a-z_]+/gi, '{}');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether docs/api.md names PATH: whole, relative to `/admin/v1` in the Admin API table, or as
 * `…/<the last segments>` after the route it continues (at least two segments: `…/tokens/{token_id}`).
 */
function documented(text: string, path: string): boolean {
  const doc = shape(text);
  const p = shape(path);
  const whole = p.startsWith('/admin/v1/') ? [p, p.slice('/admin/v1'.length)] : [p];
  if (whole.some((c) => new RegExp(`(?:^|[\\s\`(])${escape(c)}(?=[\`\\s?[,)]|$)`, 'm').test(doc))) return true;
  const segments = p.split('/').filter(Boolean);
  for (let i = 1; i <= segments.length - 2; i++) if (doc.includes(`…/${segments.slice(i).join('/')}`)) return true;
  return false;
}

describe('docs/api.md names every route of the OpenAPI documents', () => {
  let listeners: Awaited<ReturnType<typeof openApiListeners>>;
  const paths: string[] = [];
  beforeAll(async () => {
    listeners = await openApiListeners();
    for (const app of [listeners.api, listeners.link] as FastifyInstance[]) {
      const doc = (await servedDocument(app)) as { paths: Record<string, unknown> };
      paths.push(...Object.keys(doc.paths));
    }
  });
  afterAll(() => listeners?.close());

  it('every path', () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !documented(API_MD, p))).toEqual([]);
  });

  it('fails on a route the text does not name', () => {
    expect(documented(API_MD, '/v1/nothing_like_this/{id}')).toBe(false);
    expect(documented('`GET /v1/things/{thing_id}`', '/v1/things/{id}')).toBe(true);
  });
});
