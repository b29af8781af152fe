import { Type } from '@fastify/type-provider-typebox';
import { limitsConfigJsonSchema } from '@feedback/kit-limits';

/**
 * The body of both PUTs: the SMS_LIMITS_FILE document, its JSON Schema derived from kit-limits'
 * own (limits-config.ts), so the API and the file cannot drift apart. The cross-field rules (a
 * tier while enabled, unique names) are checked by the same parser in the route.
 */
export const SmsLimitsBody = Type.Unsafe<{ enabled?: boolean; tiers?: { name?: string; limit: number; window_seconds: number }[] }>({
  ...limitsConfigJsonSchema(),
  description:
    'The limits file\'s document: tiers (1-16, each limit per window_seconds; name 1-32 of a-z, 0-9, "_", "-", default t<index>) or {"enabled": false} (every request admitted, no RateLimit headers).',
  examples: [
    {
      tiers: [
        { limit: 2, window_seconds: 60 },
        { name: 'hourly', limit: 100, window_seconds: 3600 },
      ],
    },
    { enabled: false },
  ],
});

const Source = (values: string[], description: string) => Type.Unsafe<string>({ type: 'string', enum: values, description });

const tierFields = {
  name: Type.String({ description: 'Names the tier in RateLimit and RateLimit-Policy.' }),
  limit: Type.Integer({ description: 'Requests admitted per window.' }),
  window_seconds: Type.Integer({ description: 'The window, opened by the first admitted request after the previous one ended.' }),
};

export const SmsLimitsSchema = Type.Object(
  {
    source: Source(
      ['stored', 'file', 'default'],
      'stored: set through this API (wins over the file); file: SMS_LIMITS_FILE; default: the built-in four tiers.',
    ),
    enabled: Type.Boolean({ description: 'false: every request admitted, no RateLimit headers.' }),
    tiers: Type.Array(Type.Object(tierFields, { additionalProperties: false }), {
      description: 'Every tier must have room for a request.',
    }),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the stored limits were set; null for the file or the defaults.',
    }),
    accounts_with_own_limits: Type.Integer({ description: 'Accounts with limits of their own, which these do not apply to.' }),
  },
  {
    $id: 'SmsLimits',
    additionalProperties: false,
    description: "The deployment's SMS sharing limits in force on every gateway replica, and where they come from.",
    examples: [
      {
        source: 'default',
        enabled: true,
        tiers: [
          { name: 't0', limit: 20, window_seconds: 5 },
          { name: 't1', limit: 40, window_seconds: 25 },
          { name: 't2', limit: 80, window_seconds: 125 },
          { name: 't3', limit: 160, window_seconds: 625 },
        ],
        updated_at: null,
        accounts_with_own_limits: 0,
      },
    ],
  },
);

export const AccountSmsLimitsSchema = Type.Object(
  {
    account_id: Type.String(),
    source: Source(
      ['account', 'stored', 'file', 'default'],
      "account: the account's own limits; otherwise the deployment's, with their source (GET /admin/v1/sms_limits).",
    ),
    enabled: Type.Boolean({ description: "false: the account's sharings are not limited." }),
    tiers: Type.Array(
      Type.Object(
        {
          ...tierFields,
          used: Type.Integer({ description: 'Requests admitted in the open window (0 when none is open).' }),
          remaining: Type.Integer({ description: 'limit - used: what the account may still send before this tier refuses.' }),
          resets_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description: 'When the open window ends and used returns to 0; null when no window is open.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'Each tier in force for the account and how full it is now.' },
    ),
    usage_from: Source(
      ['redis', 'process', 'none'],
      "redis: the count every replica shares; process: Redis is unreachable and this is the answering replica's own count; none: limits are off.",
    ),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the limits in force were stored; null for the file or the defaults.',
    }),
  },
  {
    $id: 'AccountSmsLimits',
    additionalProperties: false,
    description: 'The SMS sharing limits in force for one account and how full each tier is right now.',
    examples: [
      {
        account_id: 'acme',
        source: 'account',
        enabled: true,
        tiers: [{ name: 't0', limit: 2, window_seconds: 60, used: 1, remaining: 1, resets_at: '2026-05-04T10:01:00.000+03:00' }],
        usage_from: 'redis',
        updated_at: '2026-05-04T09:58:12.000+03:00',
      },
    ],
  },
);
