import { Type, type Static } from '@fastify/type-provider-typebox';
import type { Reminder, SendWindow } from '@feedback/proto/feedback/messaging/v1/messaging';

/** A campaign's send window (docs/api.md "Send windows"); messaging checks the times and the zone and names the field. */
export const SendWindowSchema = Type.Object(
  {
    start: Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'HH:MM, 24-hour, in time_zone.' }),
    end: Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'HH:MM; before start, the window spans midnight.' }),
    time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone.' }),
    days: Type.Optional(
      Type.Array(Type.Union(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => Type.Literal(d))), {
        maxItems: 7,
        uniqueItems: true,
        description: 'The days the window opens; every day when omitted.',
      }),
    ),
  },
  { additionalProperties: false, description: 'When SMS may go out; messages due outside it wait for its next opening.' },
);

export const ReminderSchema = Type.Object(
  {
    after: Type.String({
      minLength: 2,
      maxLength: 40,
      description: 'ISO 8601 duration after the first messages were due (P1D, PT6H), at most 30 days; later than the reminder before it.',
    }),
    message_template: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: "Must contain {{link}} (the recipient's same short link); default: the campaign's.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The delivery rules a campaign is created with or updated to. */
export const campaignRuleFields = {
  send_window: Type.Optional(
    Type.Union([SendWindowSchema, Type.Null()], { description: "null or omitted: the deployment's default window, if any." }),
  ),
  reminders: Type.Optional(
    Type.Array(ReminderSchema, {
      maxItems: 3,
      description: 'Sent only to recipients whose survey link is still active (not answered, not expired) and who have not opted out.',
    }),
  ),
  transliterate: Type.Optional(
    Type.Boolean({
      description:
        'Map letters outside GSM 7-bit (ş→s, ğ→g, ı→i, …) in the rendered text, never in the link, so a message costs GSM rates.',
    }),
  ),
};

export const CampaignRulesBody = Type.Object(campaignRuleFields, {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ send_window: { start: '09:00', end: '21:00', time_zone: 'Europe/Istanbul' }, reminders: [{ after: 'P2D' }] }],
});

export const sendWindowIn = (w: Static<typeof SendWindowSchema>): SendWindow => ({
  start: w.start,
  end: w.end,
  timeZone: w.time_zone,
  days: w.days ?? [],
});

export const remindersIn = (rs: Static<typeof ReminderSchema>[]): Reminder[] =>
  rs.map((r) => ({ after: r.after, messageTemplate: r.message_template ?? '' }));

export const sendWindowView = (w: SendWindow | undefined) =>
  w ? { start: w.start, end: w.end, time_zone: w.timeZone, days: w.days } : null;

export const remindersView = (rs: Reminder[]) => rs.map((r) => ({ after: r.after, message_template: r.messageTemplate || null }));

/** How a campaign shows its rules (the SmsCampaign schema's part). */
export const campaignRuleViewFields = {
  send_window: Type.Union([SendWindowSchema, Type.Null()]),
  reminders: Type.Array(Type.Object({ after: Type.String(), message_template: Type.Union([Type.String(), Type.Null()]) })),
  transliterate: Type.Boolean(),
};
