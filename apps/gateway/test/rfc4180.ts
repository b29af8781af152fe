/**
 * A strict RFC 4180 reader for the tests: CRLF records, quoted fields with doubled quotes; it
 * throws on anything else (a bare quote, a lone CR or LF outside quotes, a last record without
 * its CRLF), so a test fails on any slip of the writer.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    fields.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      records.push(fields);
      fields = [];
      i += 2;
      continue;
    }
    throw new Error(`expected , or CRLF at ${i}`);
  }
  if (fields.length > 0) throw new Error('the last record has no CRLF');
  return records;
}
