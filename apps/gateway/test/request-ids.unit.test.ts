import { describe, expect, it } from 'vitest';
import { countingRequestIds, genReqId } from '../src/http/request-context.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('counts UUID-shaped ids up from a random start, different in each generator', () => {
    const next = countingRequestIds();
    const ids = Array.from({ length: 1000 }, next);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(1000);
    const [a, b] = ids.map((id) => Number.parseInt(id.slice(24), 16));
    expect(b! - a!).toBe(1);
    expect(countingRequestIds()().slice(0, 24)).not.toBe(ids[0]!.slice(0, 24));
  });

  it("keeps a caller's printable x-request-id and makes one for anything else", () => {
    const next = countingRequestIds();
    expect(genReqId({ headers: { 'x-request-id': 'crm-42' } }, next)).toBe('crm-42');
    expect(genReqId({ headers: { 'x-request-id': 'bad id\n' } }, next)).toMatch(UUID_V4);
    expect(genReqId({ headers: {} })).toMatch(UUID_V4);
  });
});
