import { Type } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import { checkLimitsConfig, type LimitsConfig, type LimitsScope } from '@feedback/kit-limits';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../accounts/domain/people.js';
import { accountScope } from './account-scope.js';
import type { AdminContext } from './console.routes.js';
import { pageContext, sendHtml, viewerOf } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { formField, requireOperator } from './manage-scope.js';
import { smsLimitsPage, type LimitsForm } from './sms-limits.views.js';

const Query = Type.Object({
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  saved: Type.Optional(Type.Literal('1')),
  lang: Type.Optional(Type.String()),
});
const MAX_ROWS = 16;
const FIELD_OF: Record<string, string> = { name: 'name', limit: 'limit', window_seconds: 'window' };

/**
 * A limits form as the limits file's document, checked by the file's own parser (kit-limits
 * checkLimitsConfig, as the admin API's PUT): its problems named by the form's fields.
 */
export function limitsFromForm(body: unknown): { ok: true; config: LimitsConfig } | { ok: false; form: LimitsForm } {
  const enabled = formField(body, 'enabled') === 'on';
  const rows: LimitsForm['rows'] = [];
  for (let i = 0; i < MAX_ROWS; i++) {
    const row = {
      name: formField(body, `tier${i}_name`),
      limit: formField(body, `tier${i}_limit`),
      window: formField(body, `tier${i}_window`),
    };
    if (i < 4 || row.name || row.limit || row.window) rows.push(row);
  }
  const rowOf: number[] = [];
  const tiers = rows.flatMap((r, i) => {
    if (!r.name && !r.limit && !r.window) return [];
    rowOf.push(i);
    // Not a whole number: left as typed, so the parser names the field.
    const num = (s: string) => (/^\d{1,12}$/.test(s) ? Number(s) : s);
    return [{ ...(r.name ? { name: r.name } : {}), limit: num(r.limit), window_seconds: num(r.window) }];
  });
  const checked = checkLimitsConfig(enabled ? { tiers } : { enabled: false });
  if (checked.ok) return { ok: true, config: checked.config };
  const fieldErrors: Record<string, string> = {};
  for (const issue of checked.issues) {
    const [first, index, key] = issue.path;
    const name =
      first === 'tiers' && typeof index === 'number' && typeof key === 'string' && FIELD_OF[key]
        ? `tier${rowOf[index] ?? index}_${FIELD_OF[key]}`
        : 'tiers';
    fieldErrors[name] ??= issue.message;
  }
  return { ok: false, form: { enabled, rows, errors: fieldErrors } };
}

/** The SMS sharing limits for operators: the same live setting as GET/PUT/DELETE /admin/v1/sms_limits and an account's. */
export const smsLimitsRoutes =
  (ctx: AdminContext): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    const operator = (req: FastifyRequest): Viewer => {
      const viewer = viewerOf(req);
      requireOperator(viewer);
      return viewer;
    };

    async function show(
      req: FastifyRequest,
      reply: FastifyReply,
      status: number,
      o: { accountId?: string; deploymentForm?: LimitsForm; accountForm?: LimitsForm; saved?: boolean },
    ) {
      const viewer = operator(req);
      const scope = await accountScope(ctx.accounts, viewer, o.accountId);
      const account = scope && {
        id: scope.accountId,
        name: scope.accountName,
        inForce: ctx.smsLimits.account(scope.accountId),
        usage: await ctx.smsUsage.usage(scope.accountId),
        form: o.accountForm,
      };
      return sendHtml(
        reply,
        status,
        smsLimitsPage(pageContext(req, viewer), {
          viewer,
          timeZone: ctx.displayTimeZone,
          deployment: ctx.smsLimits.deployment(),
          accountsWithOwn: ctx.smsLimits.accountOverrides,
          deploymentForm: o.deploymentForm,
          saved: o.saved,
          account: account ?? undefined,
        }),
      );
    }
    const back = (reply: FastifyReply, accountId?: string) =>
      reply.redirect(`/console/sms-limits?${accountId ? `account=${encodeURIComponent(accountId)}&` : ''}saved=1`, 303);
    /** The form's account, which must exist (404 otherwise). */
    const accountOf = async (req: FastifyRequest) => {
      const id = formField(req.body, 'account');
      if (!id) throw errors.invalid({ account: 'is required' });
      const scope = await accountScope(ctx.accounts, operator(req), id);
      return scope!.accountId;
    };
    const post = { schema: { hide: true }, preHandler: requireCsrf(ctx.publicOrigin) };
    const deployment: LimitsScope = { kind: 'deployment' };

    app.get('/console/sms-limits', { schema: { hide: true, querystring: Query } }, (req, reply) => {
      const q = req.query as { account?: string; saved?: string };
      return show(req, reply, 200, { accountId: q.account, saved: q.saved === '1' });
    });

    app.post('/console/sms-limits', post, async (req, reply) => {
      operator(req);
      const parsed = limitsFromForm(req.body);
      if (!parsed.ok) return show(req, reply, 400, { deploymentForm: parsed.form });
      await ctx.smsLimits.set(deployment, parsed.config);
      return back(reply);
    });

    app.post('/console/sms-limits/reset', post, async (req, reply) => {
      operator(req);
      await ctx.smsLimits.reset(deployment);
      return back(reply);
    });

    app.post('/console/sms-limits/account', post, async (req, reply) => {
      const accountId = await accountOf(req);
      const parsed = limitsFromForm(req.body);
      if (!parsed.ok) return show(req, reply, 400, { accountId, accountForm: parsed.form });
      await ctx.smsLimits.set({ kind: 'account', accountId }, parsed.config);
      return back(reply, accountId);
    });

    app.post('/console/sms-limits/account/reset', post, async (req, reply) => {
      const accountId = await accountOf(req);
      await ctx.smsLimits.reset({ kind: 'account', accountId });
      return back(reply, accountId);
    });
  };
