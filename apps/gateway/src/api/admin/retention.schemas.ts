import { Type } from '@fastify/type-provider-typebox';
import { MAX_RETENTION_DAYS } from '@feedback/kit-core';

const days = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_RETENTION_DAYS, description, examples: [90] });

/** An account's retention (docs/api.md "Retention"); every field optional: what is left out follows the deployment default. */
export const RetentionBody = Type.Object(
  {
    retention_days: Type.Optional(days('Days kept, for every kind below that is not given itself; 0: kept for ever.')),
    messages_days: Type.Optional(days('SMS message records and sharings with their recipients (over retention_days).')),
    responses_days: Type.Optional(days('Survey responses (over retention_days).')),
    webhook_deliveries_days: Type.Optional(days('The webhook delivery log (over retention_days).')),
  },
  { additionalProperties: false },
);

const effective = Type.Object({
  days: Type.Integer({ description: 'Days kept; 0: for ever.' }),
  source: Type.Union([Type.Literal('account'), Type.Literal('default')], {
    description: "account: the account's own value; default: the deployment's.",
  }),
});

export const RetentionSchema = Type.Object(
  {
    account_id: Type.String(),
    retention_days: Type.Union([Type.Integer(), Type.Null()], { description: 'As last set; null when not set.' }),
    messages: effective,
    responses: effective,
    webhook_deliveries: effective,
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null: never set.' }),
  },
  { $id: 'AccountRetention' },
);
