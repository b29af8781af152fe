import { answerValue, isoWithOffset, type AnswerShown } from '@feedback/kit-core';
import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';

/** The built-in responses an SMS sharing may carry per phone, each a column of its own. */
const BUILT_IN_KEYS = ['customerDetailInfo1', 'customerDetailInfo2'];

/** Columns before the question keys, in this order. */
export const FIXED_COLUMNS = [
  'id',
  'created_at',
  'flow_id',
  'channel_id',
  'customer_external_id',
  'customer_email',
  'customer_phone',
  ...BUILT_IN_KEYS.map((k) => `built_in_responses.${k}`),
  'campaign_id',
  'sharing_id',
  'message_id',
];

/** A custom attribute's column: after the fixed ones, before the questions. */
const attributeColumn = (name: string) => `custom_attributes.${name}`;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF, quotes doubled. A
 * text that a spreadsheet would run as a formula (it starts with = + - @, or a tab, CR or LF that
 * some strip first) gets a leading ' (OWASP "CSV injection"); numbers are ours and stay numbers.
 * The only CSV the repository writes (messaging and the CLI read CSV, they write none).
 */
export function csvField(value: string | number): string {
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && /^[=+\-@\t\r\n]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A record ends with CRLF, as RFC 4180 has it. */
export const csvRecord = (fields: Array<string | number>) => `${fields.map(csvField).join(',')}\r\n`;

/** An answer as one cell: option keys joined by ";" (keys never hold one), a number or text as it is. */
function answerCell(value: AnswerShown | undefined): string | number {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(';') : value;
}

/** One response as a record of the export, its custom attributes and answers under their columns. */
export function responseRecord(r: SurveyResponse, questionKeys: readonly string[], attributeNames: readonly string[] = []): string {
  const answers = new Map(r.answers.map((a) => [a.questionKey, answerValue(a)]));
  const context = r.context;
  return csvRecord([
    r.id,
    isoWithOffset(new Date(r.answeredAt)),
    r.flowId,
    r.channelId,
    r.customer?.externalId ?? '',
    r.customer?.email ?? '',
    r.customer?.phone ?? '',
    ...BUILT_IN_KEYS.map((k) => r.builtInResponses[k] ?? ''),
    context?.campaignId ?? '',
    context?.sharingId ?? '',
    context?.messageId ?? '',
    ...attributeNames.map((k) => context?.customAttributes[k] ?? ''),
    ...questionKeys.map((k) => answerCell(answers.get(k))),
  ]);
}

/** The custom attribute names of the exported responses, each once, sorted: one column each. */
export async function attributeNamesOf(pages: AsyncIterable<SurveyResponse[]>): Promise<string[]> {
  const names = new Set<string>();
  for await (const page of pages) for (const r of page) for (const k of Object.keys(r.context?.customAttributes ?? {})) names.add(k);
  return [...names].sort();
}

/**
 * The export as text chunks: the header, then each page's records as the pages come. The pages
 * are read twice (`pages` starts them again): first for the custom attribute columns, which the
 * header names before any record, then for the records. Pages are pulled one at a time, when
 * the reader wants more, so memory holds one page (and the attribute names) whatever the
 * export's size.
 */
export async function* responsesCsv(questionKeys: readonly string[], pages: () => AsyncIterable<SurveyResponse[]>): AsyncGenerator<string> {
  const attributeNames = await attributeNamesOf(pages());
  yield csvRecord([...FIXED_COLUMNS, ...attributeNames.map(attributeColumn), ...questionKeys]);
  for await (const page of pages()) {
    if (page.length > 0) yield page.map((r) => responseRecord(r, questionKeys, attributeNames)).join('');
  }
}
