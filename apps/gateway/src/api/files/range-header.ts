export interface ByteRange {
  first?: number;
  last?: number;
  suffixLength?: number;
}

const SINGLE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * One `Range: bytes=...` range (first-last, first-, or -suffix). Several ranges or anything
 * malformed give undefined: RFC 9110 lets a server ignore Range and send the whole object.
 */
export function parseRangeHeader(header: string | undefined): ByteRange | undefined {
  const m = SINGLE.exec((header ?? '').replace(/\s+/g, ''));
  if (!m) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') return { suffixLength: Number(b) };
  return b === '' ? { first: Number(a) } : { first: Number(a), last: Number(b) };
}
