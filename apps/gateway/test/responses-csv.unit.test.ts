import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { describe, expect, it } from 'vitest';
import { csvField, FIXED_COLUMNS, responsesCsv } from '../src/api/responses/responses-csv.js';
import { parseCsv } from './rfc4180.js';

const response = (
  id: string,
  answers: SurveyResponse['answers'],
  customer?: SurveyResponse['customer'],
  builtInResponses: Record<string, string> = {},
  context?: SurveyResponse['context'],
): SurveyResponse => ({
  id,
  accountId: 'acc',
  flowId: 'flow-1',
  channelId: 'chan-1',
  nodeId: 'n',
  customerId: 'cust',
  linkId: 'link',
  answers,
  builtInResponses,
  answeredAt: '2026-11-22T09:30:00.123Z',
  ...(customer ? { customer } : {}),
  ...(context ? { context } : {}),
});

async function text(gen: AsyncGenerator<string>) {
  let out = '';
  for await (const chunk of gen) out += chunk;
  return out;
}

/** The pages as the route gives them: a new pass over the same pages at each call. */
const pagesOf = (...pages: SurveyResponse[][]) =>
  async function* () {
    for (const p of pages) yield p;
  };

describe('CSV fields (RFC 4180)', () => {
  it('quotes a field holding a comma, a quote, CR or LF, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('')).toBe('');
  });

  it('defuses what a spreadsheet would run as a formula, but not our numbers', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\r=1+1')).toBe('"\'\r=1+1"');
    // A line feed first: some spreadsheets drop leading blank lines of a cell and run what follows.
    expect(csvField('\n=1+1')).toBe('"\'\n=1+1"');
    expect(csvField(-5)).toBe('-5');
    expect(csvField('a=b')).toBe('a=b');
  });
});

describe('the responses export', () => {
  it('writes a header and one record per response, page after page, answers under their question keys', async () => {
    const first = response(
      'r1',
      [
        { questionKey: 'nps', optionKeys: [], number: 9 },
        { questionKey: 'why', optionKeys: ['price', 'speed'] },
        { questionKey: 'note', optionKeys: [], text: 'Fast, "really"\r\n=1+1' },
      ],
      { externalId: '=cmd', email: 'ada@example.com', phone: '905321234567' },
      { customerDetailInfo1: 'Gold', customerDetailInfo2: '@Istanbul' },
    );
    const second = response('r2', [{ questionKey: 'nps', optionKeys: [], number: 0 }]);
    const csv = await text(responsesCsv(['nps', 'why', 'note'], pagesOf([first], [], [second])));
    expect(parseCsv(csv)).toEqual([
      [...FIXED_COLUMNS, 'nps', 'why', 'note'],
      [
        'r1',
        '2026-11-22T09:30:00.123+00:00',
        'flow-1',
        'chan-1',
        "'=cmd",
        'ada@example.com',
        '905321234567',
        'Gold',
        "'@Istanbul",
        '',
        '',
        '',
        '9',
        'price;speed',
        'Fast, "really"\r\n=1+1',
      ],
      ['r2', '2026-11-22T09:30:00.123+00:00', 'flow-1', 'chan-1', '', '', '', '', '', '', '', '', '0', '', ''],
    ]);
  });

  it('adds the send context: campaign, sharing, message, and a column per custom attribute of any record, sorted', async () => {
    const texted = response(
      'r1',
      [{ questionKey: 'nps', optionKeys: [], number: 10 }],
      undefined,
      {},
      {
        campaignId: 'camp-1',
        sharingId: 'sh-1',
        messageId: 'sh-1.905321234567',
        customAttributes: { store: 'Kadikoy', order_id: '=A-1' },
      },
    );
    const other = response(
      'r2',
      [],
      undefined,
      {},
      { campaignId: 'camp-1', sharingId: 'sh-2', messageId: 'm2', customAttributes: { '@tier': 'gold' } },
    );
    const older = response('r3', []);
    const rows = parseCsv(await text(responsesCsv(['nps'], pagesOf([texted], [other, older]))));
    expect(rows[0]).toEqual([...FIXED_COLUMNS, 'custom_attributes.@tier', 'custom_attributes.order_id', 'custom_attributes.store', 'nps']);
    const at = (row: string[], column: string) => row[rows[0]!.indexOf(column)];
    expect([at(rows[1]!, 'campaign_id'), at(rows[1]!, 'sharing_id'), at(rows[1]!, 'message_id')]).toEqual([
      'camp-1',
      'sh-1',
      'sh-1.905321234567',
    ]);
    expect([at(rows[1]!, 'custom_attributes.order_id'), at(rows[1]!, 'custom_attributes.store'), at(rows[1]!, 'nps')]).toEqual([
      "'=A-1",
      'Kadikoy',
      '10',
    ]);
    expect(at(rows[2]!, 'custom_attributes.@tier')).toBe('gold');
    expect(rows[3]!.slice(FIXED_COLUMNS.length - 3)).toEqual(['', '', '', '', '', '', '']);
  });

  it('reads the pages twice, one page at a time: for the attribute columns, then for the records', async () => {
    let pulled = 0;
    async function* counted() {
      for (let i = 0; i < 3; i++) {
        pulled++;
        yield [response(`r${i}`, [])];
      }
    }
    const gen = responsesCsv([], counted);
    await gen.next(); // the header, once every page was seen
    expect(pulled).toBe(3);
    await gen.next();
    expect(pulled).toBe(4);
  });
});
