import { Readable } from 'node:stream';
import { CsvError, parse, type Info } from 'csv-parse';
import { CsvFormatError, type CsvRecord } from '../../domain/customer-csv.js';

/** Longer records are not a customer row: the file is refused rather than buffered. */
const MAX_RECORD_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;

/**
 * Streams CSV records out of a byte stream with csv-parse: a UTF-8 BOM is dropped, empty lines
 * are skipped, a row with the wrong number of fields is passed on (the domain rejects it by
 * line), and the delimiter is taken from the header row (comma, or the semicolon or tab that
 * spreadsheet exports in many locales use). Malformed CSV throws CsvFormatError with the line.
 */
export async function* csvRecords(source: AsyncIterable<Buffer>): AsyncGenerator<CsvRecord> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  // Enough bytes to see the whole header row.
  while (!head.some((b) => b.includes(0x0a)) && headBytes < MAX_RECORD_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    headBytes += next.value.length;
  }
  const parser = parse({
    delimiter: sniffDelimiter(Buffer.concat(head).toString('utf8')),
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  const rest = async function* () {
    yield* head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  const input = Readable.from(rest());
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      yield { line: info.lines, fields: record };
    }
  } catch (err) {
    // csv-parse's message quotes the offending cells (a customer's data): the code, line and column only.
    if (err instanceof CsvError) throw new CsvFormatError(`not a readable CSV file: ${err.code}${where(err)}`);
    throw err;
  } finally {
    input.destroy();
    parser.destroy();
    // Not awaited: it waits for a read in flight; the generator's own `finally` cancels the call.
    void iterator.return?.()?.catch(() => undefined);
  }
}

/** The line and column (1-based) where csv-parse stopped, as far as it says. */
function where(err: CsvError): string {
  const { lines, column } = err as CsvError & { lines?: unknown; column?: unknown };
  const at = [typeof lines === 'number' && `line ${lines}`, typeof column === 'number' && `column ${column + 1}`].filter(Boolean);
  return at.length ? ` at ${at.join(', ')}` : '';
}

function sniffDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  let best: string = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = unquoted.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}
