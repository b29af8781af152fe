import { GSM7_TURKISH_SINGLE_SHIFT_TABLE, isGsm7, smsCost, transliterate } from './sms-encoding.js';
import { renderTemplate } from './sms-template.js';

/** How a deployment's texts are costed: the provider's shift-table support and a stand-in for a short link. */
export interface CostSettings {
  /** The provider sends the Turkish single shift table (gsm7-tr); else such a text is ucs2. */
  turkishShift: boolean;
  /** As long as a real short link (previews and warnings); the real link is only known when the SMS goes out. */
  placeholderLink: string;
}

/**
 * One SMS's text: the template with the recipient's attributes and the link. The link wins over
 * an attribute of the same name: the SMS must lead to the survey. With `transliterate` (the
 * campaign's), the template's text and the attribute values are mapped to GSM 7-bit letters
 * (ş→s, ğ→g, ı→i, ...) so the SMS is not ucs2 for a Turkish letter; the link never is, since a
 * changed letter would break it (and a short link is letters and digits already).
 */
export function renderSms(
  template: string,
  attributes: Readonly<Record<string, string>>,
  link: string,
  opts: { transliterate: boolean },
): string {
  if (!opts.transliterate) return renderTemplate(template, { ...attributes, link });
  const values = Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, transliterate(value)]));
  return renderTemplate(template, { ...values, link }, transliterate);
}

/** A template alone taking more segments than this warns: each segment is billed as one SMS. */
const WARN_ABOVE_SEGMENTS = 2;

/**
 * What a template alone costs when it is more than it seems, rendered without attributes and
 * with a placeholder link (each recipient's attributes add to it): a character that makes every
 * SMS ucs2 (70 characters a segment instead of 160), named, or more than two segments. Nothing
 * is refused for it; campaign creation and update answer these.
 */
export function templateWarnings(template: string, opts: CostSettings & { transliterate: boolean; field?: string }): string[] {
  const text = renderSms(template, {}, opts.placeholderLink, opts);
  const cost = smsCost(text, { turkishShift: opts.turkishShift });
  const field = opts.field ?? 'message_template';
  const warnings: string[] = [];
  if (cost.encoding === 'ucs2') {
    const char = [...text].find((c) => !isGsm7(c) && !(opts.turkishShift && TURKISH_SHIFT.has(c)))!;
    warnings.push(
      `${field}: ${describe(char)} is not in the GSM 7-bit alphabet, so every SMS is sent as ucs2 (70 characters a segment instead of 160)`,
    );
  }
  if (cost.segments > WARN_ABOVE_SEGMENTS)
    warnings.push(`${field}: takes ${cost.segments} segments (${cost.encoding}) before any attribute; each is billed as one SMS`);
  return warnings;
}

/**
 * A stand-in for a short link on the deployment's short domain: its base URL and a code of the
 * shortener's length. A link on an account's own domain (https://<domain>/<code>) may be longer
 * or shorter by the difference of the two bases.
 */
export const placeholderLink = (shortBaseUrl: string, codeLength: number) =>
  `${shortBaseUrl.replace(/\/+$/, '')}/${'x'.repeat(codeLength)}`;

/** Without configuration (tests): a link of the local stack's length, http://127.0.0.1:8081/ and 7 characters. */
export const DEFAULT_COST_SETTINGS: CostSettings = { turkishShift: false, placeholderLink: placeholderLink('http://127.0.0.1:8081', 7) };

/** The deployment's cost settings, defaults filled in. */
export const costSettings = (s: { cost?: Partial<CostSettings> }): CostSettings => ({ ...DEFAULT_COST_SETTINGS, ...s.cost });

const TURKISH_SHIFT = new Set(GSM7_TURKISH_SINGLE_SHIFT_TABLE);

/** The character quoted, with its code point: an invisible one (a no-break space) is still findable. */
function describe(char: string): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char) ? `"${char}" (${code})` : code;
}
