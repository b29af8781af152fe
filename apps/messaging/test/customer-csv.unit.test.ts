import { describe, expect, it } from 'vitest';
import { csvRecords } from '../src/csv-workflow/adapters/csv/csv-records.js';
import { CsvFormatError, readCustomerRows } from '../src/csv-workflow/domain/customer-csv.js';

async function* bytes(text: string, chunkSize = 7): AsyncGenerator<Buffer> {
  const buf = Buffer.from(text, 'utf8');
  for (let i = 0; i < buf.length; i += chunkSize) yield buf.subarray(i, i + chunkSize);
}

const read = (text: string, maxRows = 100, chunkSize?: number) =>
  readCustomerRows(csvRecords(bytes(text, chunkSize)), { defaultRegion: 'TR', maxRows });

describe('a customer CSV file', () => {
  it('maps phone, known columns and every other column, streamed in small chunks across multi-byte letters', async () => {
    const csv =
      '\uFEFFPhone,External_ID,email,Name,Şehir,\r\n+90 532 123 45 67,X1,a@example.com,Ayşe Yılmaz,İstanbul,\r\n05551112233,,,"Kaya, Ali",,\r\n';
    const result = await read(csv, 100, 3);
    expect(result).toEqual({
      total: 2,
      rejected: [],
      rows: [
        {
          line: 2,
          phone: '+90 532 123 45 67',
          attributes: { external_id: 'X1', email: 'a@example.com', name: 'Ayşe Yılmaz', Şehir: 'İstanbul' },
        },
        { line: 3, phone: '05551112233', attributes: { name: 'Kaya, Ali' } },
      ],
    });
  });

  it('accepts phone_number, semicolons and tabs as spreadsheet exports write them', async () => {
    expect((await read('name;phone_number\nAyşe;05321234567\n')).rows).toEqual([
      { line: 2, phone: '05321234567', attributes: { name: 'Ayşe' } },
    ]);
    expect((await read('phone\tname\n05321234567\tAli\n')).rows).toEqual([{ line: 2, phone: '05321234567', attributes: { name: 'Ali' } }]);
  });

  it('rejects malformed rows with their line and reason, and keeps the others', async () => {
    const csv = [
      'phone,name,tier',
      '05321234567,Ayşe,gold',
      '05551112233,too,many,fields',
      ',Empty,silver',
      '12345,Short,gold',
      'not a phone,Text,gold',
      '',
      '05441234567,Zeynep',
      `05301234567,${'x'.repeat(1_001)},gold`,
      '"05331234567","Çağrı ""the"" client",bronze',
    ].join('\n');
    const result = await read(csv);
    expect(result.total).toBe(8);
    expect(result.rows.map((r) => [r.line, r.phone, r.attributes])).toEqual([
      [2, '05321234567', { name: 'Ayşe', tier: 'gold' }],
      [10, '05331234567', { name: 'Çağrı "the" client', tier: 'bronze' }],
    ]);
    expect(result.rejected).toEqual([
      { line: 3, phone: '05551112233', reason: 'wrong_column_count: expected 3, got 4' },
      { line: 4, phone: '', reason: 'empty' },
      { line: 5, phone: '12345', reason: 'too_short' },
      { line: 6, phone: 'not a phone', reason: 'not_a_number' },
      { line: 8, phone: '05441234567', reason: 'wrong_column_count: expected 3, got 2' },
      { line: 9, phone: '05301234567', reason: 'value_too_long: name has more than 1000 characters' },
    ]);
  });

  it('numbers a row by its last line when a quoted value spans lines', async () => {
    const result = await read('phone,note\n05321234567,"two\nlines"\n05551112233,x\n');
    expect(result.rows.map((r) => [r.line, r.attributes.note])).toEqual([
      [3, 'two\nlines'],
      [4, 'x'],
    ]);
  });

  it('refuses a file that is not a customer list', async () => {
    await expect(read('')).rejects.toThrow(new CsvFormatError('the file is empty: a header row is required'));
    await expect(read('name,email\nAyşe,a@example.com\n')).rejects.toThrow(/no phone column/);
    await expect(read('phone,name,Name\n1,2,3\n')).rejects.toThrow(/column 3 of the header row repeats/);
    await expect(read('phone,name\n05321234567,"unclosed\n')).rejects.toThrow(/not a readable CSV file/);
  });

  it('refuses a header that is not a valid attribute name, naming its column only', async () => {
    await expect(read('phone,$x\n05321234567,1\n')).rejects.toThrow(/column 2 of the header row is not a valid attribute name/);
    await expect(read('phone,a.b\n05321234567,1\n')).rejects.toThrow(/column 2 of the header row is not a valid attribute name/);
  });

  it('never quotes a cell in a parse error or a missing phone column', async () => {
    const broken = read('phone,name\n05321234567,"Ayşe Secret"x\n');
    await expect(broken).rejects.toThrow(/not a readable CSV file: \w+ at line 2/);
    await expect(read('phone,name\n05321234567,"Ayşe Secret"x\n')).rejects.not.toThrow(/Secret|05321234567/);
    await expect(read('05321234567,Ayşe\n05321234568,Can\n')).rejects.not.toThrow(/05321234567|Ayşe/);
  });

  it('rejects a row whose value the survey service would refuse (name, email, external_id), naming the column only', async () => {
    const result = await read(
      `phone,email,name\n05321234567,not-mail,Ayşe\n05321234568,a@example.com,${'n'.repeat(201)}\n05321234569,a@example.com,Can\n`,
    );
    expect(result.rows.map((r) => r.line)).toEqual([4]);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      'invalid_value: email is not an e-mail address',
      "invalid_value: name must be at most 200 characters (the customer's name)",
    ]);
    await expect(read('phone,name\n05321234567,"unclosed\n')).rejects.toBeInstanceOf(CsvFormatError);
  });

  it('stops reading once more rows than allowed have a valid phone', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => `0532123456${i}`).join('\n');
    await expect(read(`phone\n${rows}\n`, 4)).rejects.toThrow(/more than 4 rows with a valid phone/);
    expect((await read(`phone\n${rows}\n`, 5)).rows).toHaveLength(5);
  });

  it('a header without rows reads as no rows', async () => {
    expect(await read('phone,name\n')).toEqual({ rows: [], rejected: [], total: 0 });
  });
});
