/** An HTTP byte range as asked: first-last (last optional) or the last `suffixLength` bytes. */
export interface RangeRequest {
  first?: number;
  last?: number;
  suffixLength?: number;
}

type ResolvedRange = { offset: number; length: number; partial: boolean } | 'not_satisfiable';

/** Resolves a requested range against the object size (RFC 9110 section 14.1.2). */
export function resolveRange(size: number, req: RangeRequest | undefined): ResolvedRange {
  if (!req || (req.first === undefined && req.suffixLength === undefined)) return { offset: 0, length: size, partial: false };
  if (req.first === undefined) {
    const n = Math.min(req.suffixLength ?? 0, size);
    if (n === 0) return 'not_satisfiable';
    return { offset: size - n, length: n, partial: true };
  }
  if (req.first >= size) return 'not_satisfiable';
  if (req.last !== undefined && req.last < req.first) return 'not_satisfiable';
  const last = Math.min(req.last ?? size - 1, size - 1);
  return { offset: req.first, length: last - req.first + 1, partial: true };
}
