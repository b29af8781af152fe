import { readFileSync } from 'node:fs';

export interface FakeSmscMessage {
  from: string;
  to: string;
  /** "text", "data", "ucs-2", or "udh" for a message that arrived in concatenated parts. */
  type: string;
  text: string;
  parts: number;
}

/**
 * Reads what fakesmsc received from its log, one line per SMS (infra/kannel.sh has the format):
 *   `... DEBUG: Got message <n>: <<from> <to> <type> <data>>`
 * "text" data is plain, "data" url-encoded bytes, "ucs-2" url-encoded UTF-16BE. A text longer
 * than one SMS (70 UCS-2 characters) arrives as parts `<from> <to> udh <udh> data <bytes>`,
 * whose UDH carries the concatenation reference, count and sequence: they are joined here, and
 * decoded as UTF-16BE because our provider sends coding=2 (the line does not say).
 */
export function readFakeSmscMessages(logFile: string): FakeSmscMessage[] {
  const out: FakeSmscMessage[] = [];
  const pending = new Map<string, { total: number; parts: Map<number, Buffer> }>();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    const m = /Got message \d+: <(\S+) (\S+) (\S+) (.*)>$/.exec(line);
    if (!m) continue;
    const [, from, to, type, rest] = m as unknown as [string, string, string, string, string];
    if (type !== 'udh') {
      out.push({ from, to, type, text: decode(type, rest), parts: 1 });
      continue;
    }
    const [udhEnc, , dataEnc = ''] = rest.split(' ');
    const concat = concatInfo(urlDecodeBytes(udhEnc ?? ''));
    if (!concat) continue;
    const key = `${from} ${to} ${concat.ref}`;
    const entry = pending.get(key) ?? { total: concat.total, parts: new Map() };
    entry.parts.set(concat.seq, urlDecodeBytes(dataEnc));
    pending.set(key, entry);
    if (entry.parts.size === entry.total) {
      pending.delete(key);
      const bytes = Buffer.concat([...entry.parts.entries()].sort(([a], [b]) => a - b).map(([, b]) => b));
      out.push({ from, to, type, text: utf16be(bytes), parts: entry.total });
    }
  }
  return out;
}

// UDH: length byte, then IEs; IE 0x00 (8-bit ref) or 0x08 (16-bit ref) is concatenation.
function concatInfo(udh: Buffer): { ref: number; total: number; seq: number } | null {
  for (let i = 1; i + 1 < udh.length; i += 2 + udh[i + 1]!) {
    const iei = udh[i]!;
    if (iei === 0x00) return { ref: udh[i + 2]!, total: udh[i + 3]!, seq: udh[i + 4]! };
    if (iei === 0x08) return { ref: udh.readUInt16BE(i + 2), total: udh[i + 4]!, seq: udh[i + 5]! };
  }
  return null;
}

function decode(type: string, data: string): string {
  if (type === 'text') return data;
  const bytes = urlDecodeBytes(data);
  return type === 'ucs-2' ? utf16be(bytes) : bytes.toString('utf8');
}

// Kannel's url-encoding: "+" is a space, %XX a byte, anything else itself.
function urlDecodeBytes(s: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '+') bytes.push(0x20);
    else if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c.charCodeAt(0));
  }
  return Buffer.from(bytes);
}

function utf16be(b: Buffer): string {
  const swapped = Buffer.from(b);
  swapped.swap16();
  return swapped.toString('utf16le');
}
