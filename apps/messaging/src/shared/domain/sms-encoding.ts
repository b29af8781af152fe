/*
 * What an SMS costs: the encoding its text needs and the number of messages (segments) it
 * takes, per 3GPP TS 23.038 (alphabets) and TS 23.040 (user data header).
 *
 * Encodings, tried in this order:
 *  - gsm7: every character is in the GSM 7-bit default alphabet (one septet) or its extension
 *    table (an escape septet and the character: two septets).
 *  - gsm7-tr (only when the Turkish single shift is allowed): every character is in the default
 *    alphabet or in the Turkish national language single shift table (TS 23.038 A.2.1), which
 *    replaces the extension table for the message: the same characters plus Ğ İ Ş ç ğ ı ş, each
 *    two septets. The message carries a 3-octet information element naming the table.
 *    Only the single shift is used; the Turkish locking shift table is not.
 *  - ucs2: anything else, as UTF-16 code units (what handsets and gateways send as "UCS-2"):
 *    an emoji outside the Basic Multilingual Plane takes two units, a surrogate pair.
 *
 * Segment sizes (a message carries 140 octets of user data, i.e. 160 septets or 70 units):
 *  - gsm7: 160 septets in a single message; 153 per part of a concatenated one (its 6-octet
 *    concatenation header, 48 bits, is padded to 7 septets).
 *  - gsm7-tr: 155 septets in a single message (header: its length octet and the 3-octet single
 *    shift element, 4 octets = 32 bits, padded to 5 septets); 149 per part of a concatenated one
 *    (length octet + 5-octet concatenation element + 3-octet single shift element, 9 octets =
 *    72 bits, padded to 11 septets).
 *  - ucs2: 70 units in a single message; 67 per part (134 octets after the 6-octet header).
 * A part never splits a character: an escape pair (two septets) or a surrogate pair that would
 * straddle a part boundary starts the next part, so that part holds one septet or unit less.
 * An empty text still sends one message: 1 segment.
 *
 * gsm7-tr is never costlier than ucs2: each character takes at most two septets, and 155 / 2
 * and 149 / 2 characters are more than 70 and 67.
 */

export type SmsEncoding = 'gsm7' | 'gsm7-tr' | 'ucs2';

export interface SmsCost {
  encoding: SmsEncoding;
  /** Messages the text takes (1 for an empty text). */
  segments: number;
  /** Unicode code points in the text (an emoji is one; a flag or a family emoji several). */
  characters: number;
}

/**
 * The GSM 7-bit default alphabet (TS 23.038 6.2.1), indexed by septet value. 0x1B is the escape
 * to the extension table, not a character: it holds an empty string here.
 */
// prettier-ignore
export const GSM7_DEFAULT_ALPHABET: readonly string[] = [
  '@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å', // 0x00
  'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', '', 'Æ', 'æ', 'ß', 'É', // 0x10
  ' ', '!', '"', '#', '¤', '%', '&', "'", '(', ')', '*', '+', ',', '-', '.', '/', // 0x20
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', // 0x30
  '¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', // 0x40
  'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§', // 0x50
  '¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', // 0x60
  'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à', // 0x70
];

/** The default alphabet extension table (TS 23.038 6.2.1.1): form feed ^ { } \ [ ~ ] | €. */
export const GSM7_EXTENSION_TABLE = '\f^{}\\[~]|€';

/** The Turkish national language single shift table (TS 23.038 A.2.1). */
export const GSM7_TURKISH_SINGLE_SHIFT_TABLE = '\f^{}\\[~]|ĞİŞçğış€';

const BASIC = new Set(GSM7_DEFAULT_ALPHABET.filter((c) => c !== ''));
const EXTENSION = new Set(GSM7_EXTENSION_TABLE);
const TURKISH_SHIFT = new Set(GSM7_TURKISH_SINGLE_SHIFT_TABLE);

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  gsm7: { single: 160, part: 153 },
  'gsm7-tr': { single: 155, part: 149 },
  ucs2: { single: 70, part: 67 },
};

export function smsCost(text: string, opts: { turkishShift: boolean }): SmsCost {
  const chars = [...text];
  let encoding: SmsEncoding = 'gsm7';
  let costs = septets(chars, EXTENSION);
  if (!costs && opts.turkishShift) {
    encoding = 'gsm7-tr';
    costs = septets(chars, TURKISH_SHIFT);
  }
  if (!costs) {
    encoding = 'ucs2';
    costs = chars.map((c) => c.length);
  }
  return { encoding, segments: segmentCount(costs, LIMITS[encoding]), characters: chars.length };
}

/** True when the character (one code point) is in the default alphabet or its extension table. */
export function isGsm7(char: string): boolean {
  return BASIC.has(char) || EXTENSION.has(char);
}

// Septets per character, or null when one is in neither the default alphabet nor the shift table.
function septets(chars: readonly string[], shift: ReadonlySet<string>): number[] | null {
  const costs: number[] = [];
  for (const c of chars) {
    if (BASIC.has(c)) costs.push(1);
    else if (shift.has(c)) costs.push(2);
    else return null;
  }
  return costs;
}

// Fills parts in order; a character that does not fit whole in the current part starts the next.
function segmentCount(costs: readonly number[], limits: { single: number; part: number }): number {
  const total = costs.reduce((sum, c) => sum + c, 0);
  if (total <= limits.single) return 1;
  let parts = 1;
  let used = 0;
  for (const c of costs) {
    if (used + c > limits.part) {
      parts += 1;
      used = 0;
    }
    used += c;
  }
  return parts;
}

/*
 * Replacements for characters outside the GSM 7-bit alphabet (default + extension) that
 * decomposition does not reach (ı ł œ ...) or maps to no GSM text (quotes, dashes, spaces).
 * ş ğ ç İ â î û are here too, though decomposition would find them, to keep Turkish explicit.
 */
const REPLACEMENTS: Readonly<Record<string, string>> = {
  ş: 's',
  Ş: 'S',
  ğ: 'g',
  Ğ: 'G',
  ı: 'i',
  İ: 'I',
  ç: 'c',
  â: 'a',
  Â: 'A',
  î: 'i',
  Î: 'I',
  û: 'u',
  Û: 'U',
  œ: 'oe',
  Œ: 'OE',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  þ: 'th',
  Þ: 'Th',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '′': "'",
  '`': "'",
  '´': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '″': '"',
  '«': '"',
  '»': '"',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '−': '-',
  '…': '...',
  '\u00A0': ' ', // no-break space
  '\u202F': ' ', // narrow no-break space
  '\u00AD': '', // soft hyphen
  '\u200B': '', // zero-width space
  '\uFEFF': '', // zero-width no-break space (byte order mark)
};

/**
 * The text with characters outside the GSM 7-bit alphabet replaced by GSM ones, so that it can
 * be sent as gsm7 (up to 160 characters a message instead of 70). The text is composed (NFC)
 * first, so a decomposed "é" counts as the GSM é. Then each character:
 *  - in the default alphabet or its extension table stays (é ü ö Ç Ñ € stay);
 *  - with a replacement above takes it (ş→s, ı→i, ç→c, ’→', “→", –→-, …→...);
 *  - else, when its compatibility decomposition (NFKD) without combining marks is all GSM, takes
 *    that: an accented letter its base letter (ã→a, Ê→E, ő→o), a ligature its letters (ﬁ→fi);
 *  - else a lone combining mark is dropped, and anything else (an emoji, a Cyrillic letter)
 *    stays as it is: smsCost then still answers ucs2.
 */
export function transliterate(text: string): string {
  let out = '';
  for (const c of text.normalize('NFC')) {
    if (isGsm7(c)) out += c;
    else if (Object.hasOwn(REPLACEMENTS, c)) out += REPLACEMENTS[c];
    else out += decomposed(c);
  }
  return out;
}

function decomposed(c: string): string {
  const base = c.normalize('NFKD').replace(/\p{M}/gu, '');
  if (base === '') return /^\p{M}$/u.test(c) ? '' : c;
  return [...base].every(isGsm7) ? base : c;
}
