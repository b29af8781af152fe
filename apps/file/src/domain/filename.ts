import { errors } from '@feedback/kit-core';

/**
 * The name is the last segment of its public blob URL, and the gateway's router refuses a path
 * segment over 200 characters (decoded). UTF-8 never takes fewer bytes than UTF-16 code units,
 * so at most 200 bytes means every accepted name can be served.
 */
const FILENAME_MAX_BYTES = 200;

// C0/C1 controls and bidirectional overrides (which can make "exe.csv" display as "vsc.exe").
const HIDDEN = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The stored name of an uploaded file: only its last path segment (a client's "C:\x\a.csv" or
 * "../../a.csv" is "a.csv"), without control characters, trimmed, NFC. Everything else (spaces,
 * non-Latin letters, punctuation) is kept: it is the integrator's name for the file.
 */
export function sanitizeFilename(raw: string): string {
  const lastSegment = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const name = lastSegment.replace(HIDDEN, '').trim();
  if (name === '' || name === '.' || name === '..') {
    throw errors.invalid({ filename: 'is required and must name a file' });
  }
  if (Buffer.byteLength(name) > FILENAME_MAX_BYTES) {
    throw errors.invalid({ filename: `must be at most ${FILENAME_MAX_BYTES} bytes` });
  }
  return name;
}
