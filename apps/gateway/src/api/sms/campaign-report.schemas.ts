import { Type } from '@fastify/type-provider-typebox';

// The campaign report (docs/api.md "Campaign report"); messaging checks the range and the zone
// (reports/domain/campaign-report.use-cases.ts), these only the shapes.

// from / to as messaging reads them (intake/domain/sharing-list.use-cases.ts parseInstant).
const INSTANT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2}))?$';
const Instant = (description: string) =>
  Type.String({ maxLength: 40, pattern: INSTANT, description, examples: ['2026-11-01', '2026-11-01T00:00:00+03:00'] });

export const CampaignReportQuery = Type.Object(
  {
    from: Type.Optional(
      Instant(
        'The range starts at or after: an ISO 8601 date (midnight UTC) or date-time with an offset; default 30 days before `to`. At most 400 days before `to` (interval=day) or 31 days (interval=hour).',
      ),
    ),
    to: Type.Optional(Instant('The range ends strictly before; after `from`; default now.')),
    interval: Type.Optional(Type.Union([Type.Literal('hour'), Type.Literal('day')], { description: "The series' buckets (default day)." })),
    time_zone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "The IANA time zone of the buckets' bounds, daylight saving time included (default UTC).",
        examples: ['Europe/Istanbul'],
      }),
    ),
  },
  { additionalProperties: false },
);

const count = (description: string) => Type.Integer({ minimum: 0, description });
const rate = (description: string) => Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description });

/** What happened to recipients, each counted once (its first message); also each list entry's `totals` (SmsSharingSummary). */
export const ReportTotalsSchema = Type.Object(
  {
    recipients: count('Phones accepted.'),
    sent: count('First messages the provider accepted (those delivered or failed afterwards included).'),
    delivered: count('First messages a delivery report said delivered.'),
    failed: count('First messages that ended failed, before or by the provider.'),
    opted_out: count('First messages not sent: the phone was on the suppression list.'),
    clicked: count('Recipients whose short link a person followed at least once (docs/api.md "What counts as a click").'),
    answered: count('Recipients who answered the survey through their link.'),
    segments: count('The SMS every sent message is billed as, reminders included.'),
  },
  { $id: 'SmsReportTotals' },
);

export const CampaignReportSchema = Type.Object(
  {
    campaign_id: Type.String({ format: 'uuid' }),
    from: Type.String({ format: 'date-time', description: 'The range the report is of (the defaults filled in), in UTC.' }),
    to: Type.String({ format: 'date-time' }),
    interval: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
    time_zone: Type.String(),
    totals: Type.Unsafe({ $ref: 'SmsReportTotals#' }),
    rates: Type.Object(
      {
        delivery: rate('delivered / sent.'),
        click: rate('clicked / sent.'),
        response: rate('answered / sent.'),
      },
      { description: 'Fractions of `sent`, 0-1, rounded to 4 decimals; null when sent is 0.' },
    ),
    nps: Type.Object(
      {
        score: Type.Union([Type.Integer({ minimum: -100, maximum: 100 }), Type.Null()], {
          description: '% promoters - % detractors, rounded (halves away from zero); null without answers.',
        }),
        promoters: count('Answers 9-10 to the flow’s NPS question.'),
        passives: count('Answers 7-8.'),
        detractors: count('Answers 0-6.'),
        total: count('Answers with an NPS score.'),
      },
      { description: "Among the answers through the campaign's links, by when they were answered." },
    ),
    series: Type.Array(
      Type.Object({
        start: Type.String({ description: "The bucket's first instant, ISO 8601 with the zone's offset." }),
        sent: Type.Integer(),
        delivered: Type.Integer(),
        failed: Type.Integer(),
        clicked: Type.Integer(),
        answered: Type.Integer(),
      }),
      {
        description:
          'Every hour or day of time_zone from the one holding `from` to the one holding the end, oldest first, empty ones included; the first and last count only their part inside the range.',
      },
    ),
  },
  {
    $id: 'SmsCampaignReport',
    examples: [
      {
        campaign_id: '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
        from: '2026-11-01T00:00:00.000+00:00',
        to: '2026-11-03T00:00:00.000+00:00',
        interval: 'day',
        time_zone: 'UTC',
        totals: { recipients: 1000, sent: 990, delivered: 960, failed: 30, opted_out: 10, clicked: 400, answered: 150, segments: 1980 },
        rates: { delivery: 0.9697, click: 0.404, response: 0.1515 },
        nps: { score: 27, promoters: 70, passives: 50, detractors: 30, total: 150 },
        series: [
          { start: '2026-11-01T00:00:00.000+00:00', sent: 990, delivered: 955, failed: 30, clicked: 350, answered: 120 },
          { start: '2026-11-02T00:00:00.000+00:00', sent: 0, delivered: 5, failed: 0, clicked: 50, answered: 30 },
        ],
      },
    ],
  },
);

export const campaignReportSchemas = [ReportTotalsSchema, CampaignReportSchema];
