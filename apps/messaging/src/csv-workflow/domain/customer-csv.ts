import { attributeNameProblem, attributeValueProblem } from '@feedback/kit-core';
import { normalizePhone } from '@feedback/kit-phone';

/** One parsed CSV record; `line` is its line in the file (its last when a quoted value spans lines; the header is 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** The file cannot be read as a customer list at all (no header, no phone column, not CSV). */
export class CsvFormatError extends Error {
  override name = 'CsvFormatError';
}

export interface CustomerRow {
  line: number;
  /** As written in the file: the key of its attributes in the sharing request. */
  phone: string;
  /** external_id, email, name and every other non-empty column. */
  attributes: Record<string, string>;
}

export interface RejectedRow {
  line: number;
  phone: string;
  reason: string;
}

export interface CustomerRows {
  rows: CustomerRow[];
  rejected: RejectedRow[];
  /** Data rows read. */
  total: number;
}

const PHONE_COLUMNS = ['phone', 'phone_number'];
/** Matched case-insensitively and passed on lowercased: the survey service reads them by these names. */
const KNOWN_COLUMNS = ['external_id', 'email', 'name'];
/** The same bounds as a sharing request's custom attributes (sharing.use-cases.ts). */
const MAX_COLUMNS = 51;
const MAX_VALUE_LENGTH = 1_000;

interface Column {
  index: number;
  key: string;
}

/**
 * Reads a customer list: a header row, then one customer per row. A bad row (wrong column
 * count, empty or invalid phone, an over-long value) is rejected with its line and the reason;
 * the others still go. Stops reading, with a CsvFormatError, once more than `maxRows` rows
 * have a valid phone, so a huge file is never held whole.
 */
export async function readCustomerRows(
  records: AsyncIterable<CsvRecord>,
  opts: { defaultRegion: string; maxRows: number },
): Promise<CustomerRows> {
  const out: CustomerRows = { rows: [], rejected: [], total: 0 };
  let header: { width: number; phone: number; columns: Column[] } | undefined;
  for await (const record of records) {
    if (!header) {
      header = parseHeader(record.fields);
      continue;
    }
    out.total++;
    const { line, fields } = record;
    const rawPhone = (fields[header.phone] ?? '').trim();
    if (fields.length !== header.width) {
      out.rejected.push({ line, phone: rawPhone, reason: `wrong_column_count: expected ${header.width}, got ${fields.length}` });
      continue;
    }
    const phone = normalizePhone(rawPhone, opts.defaultRegion);
    if (!phone.ok) {
      out.rejected.push({ line, phone: rawPhone, reason: phone.reason });
      continue;
    }
    const attributes: Record<string, string> = {};
    let refused: string | undefined;
    for (const c of header.columns) {
      const value = fields[c.index]!.trim();
      if (value.length > MAX_VALUE_LENGTH) refused ??= `value_too_long: ${c.key} has more than ${MAX_VALUE_LENGTH} characters`;
      else if (value) {
        // kit-core's rule, as a sharing's: the survey service would refuse the value at dispatch.
        // The reason names the column, never the value.
        const problem = attributeValueProblem(c.key, value);
        if (problem) refused ??= `invalid_value: ${c.key} ${problem}`;
        attributes[c.key] = value;
      }
    }
    if (refused) {
      out.rejected.push({ line, phone: rawPhone, reason: refused });
      continue;
    }
    if (out.rows.length === opts.maxRows)
      throw new CsvFormatError(`more than ${opts.maxRows} rows with a valid phone; at most ${opts.maxRows} per file`);
    out.rows.push({ line, phone: rawPhone, attributes });
  }
  if (!header) throw new CsvFormatError('the file is empty: a header row is required');
  return out;
}

function parseHeader(fields: string[]): { width: number; phone: number; columns: Column[] } {
  const names = fields.map((f) => f.trim());
  if (names.length > MAX_COLUMNS) throw new CsvFormatError(`${names.length} columns; at most ${MAX_COLUMNS} are allowed`);
  const phone = names.findIndex((n) => PHONE_COLUMNS.includes(n.toLowerCase()));
  // Not quoting the row: a file without a header starts with a customer's data.
  if (phone < 0) throw new CsvFormatError('the header row (line 1) has no phone column (phone or phone_number)');
  const columns: Column[] = [];
  const seen = new Set<string>();
  names.forEach((name, index) => {
    const lower = name.toLowerCase();
    const key = KNOWN_COLUMNS.includes(lower) || PHONE_COLUMNS.includes(lower) ? lower : name;
    if (!key) return; // an unnamed column (a trailing delimiter in spreadsheet exports): ignored
    if (seen.has(key)) throw new CsvFormatError(`column ${index + 1} of the header row repeats an earlier column's name`);
    // Every column but the phone becomes an attribute: named by kit-core's rule, which the survey
    // service applies when it stores them (the file is refused now, not each message at dispatch).
    const problem = index === phone || PHONE_COLUMNS.includes(key) ? undefined : attributeNameProblem(key);
    if (problem) throw new CsvFormatError(`column ${index + 1} of the header row is not a valid attribute name: ${problem}`);
    seen.add(key);
    if (index !== phone && !PHONE_COLUMNS.includes(key)) columns.push({ index, key });
  });
  return { width: names.length, phone, columns };
}
