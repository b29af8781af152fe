import { Type } from '@fastify/type-provider-typebox';

// A link's stats (docs/api.md "A link's stats"); the shortener checks the range and the zone
// (domain/link-analytics.use-cases.ts), these only the shapes.

// from / to as the shortener reads them.
const INSTANT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2}))?$';
const Instant = (description: string) =>
  Type.String({ maxLength: 40, pattern: INSTANT, description, examples: ['2026-11-01', '2026-11-01T00:00:00+03:00'] });

export const LinkStatsParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64, description: 'The short code.' }) });

export const LinkStatsQuery = Type.Object(
  {
    from: Type.Optional(
      Instant(
        'The range starts at or after (the hour holding it counts whole): an ISO 8601 date (midnight UTC) or date-time with an offset; default 30 days before `to`. At most 400 days before `to` (interval=day) or 31 days (interval=hour).',
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
const names = (what: string) =>
  Type.Array(Type.Object({ name: Type.String(), clicks: count('Clicks from it.') }), {
    description: `Clicks per ${what}, most first; each list adds up to \`clicks\`.`,
  });

export const LinkStatsSchema = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'The range (the defaults filled in).' }),
    to: Type.String({ format: 'date-time' }),
    interval: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
    time_zone: Type.String(),
    clicks: count('Clicks people made (docs/api.md "What counts as a click").'),
    bots_excluded: count("Redirects that were no click: bots, link previews, tools, HEAD requests, a client's repeat within the minute."),
    series: Type.Array(
      Type.Object({
        start: Type.String({ description: "The bucket's start, ISO 8601 with the zone's offset." }),
        clicks: count('Clicks in it.'),
      }),
      {
        description: 'Every hour or day of the range, empty ones included, oldest first.',
      },
    ),
    devices: names('device type (mobile, tablet, desktop, ...; unknown when the browser does not say)'),
    operating_systems: names('operating system'),
    browsers: names('browser'),
    referrers: names('referring host ((direct) for none: an SMS or mail app, a typed link)'),
    countries: names('country, ISO 3166-1 alpha-2 (unknown where the deployment provides none)'),
  },
  { $id: 'LinkStats' },
);
