import { ERROR_TABLE, errors } from '@feedback/kit-core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { parseForm } from '../api/surveys/survey-form.js';
import { toAppError } from '../http/error-handler.js';
import { decodeUtf8, hasInvalidPercentUtf8 } from '../http/strict-text.js';
import { campaignsRoutes } from './campaigns.routes.js';
import type { ConsoleAdminDeps, ConsoleDeps } from './console.feature.js';
import { CONSOLE_CSS, CONSOLE_CSS_PATH } from './console.css.js';
import { CONSOLE_ICON, CONSOLE_ICON_PATH } from './console-icon.js';
import { consoleLang } from './console.i18n.js';
import { pageContext, sendHtml } from './console-page.js';
import { messagePage, type MessageKind } from './layout.views.js';
import { sharingRoutes } from './sharing.routes.js';
import { signInRoutes } from './sign-in.routes.js';
import { optOutsRoutes } from './opt-outs.routes.js';
import { responsesRoutes } from './responses.routes.js';
import { uploadsRoutes } from './uploads.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { ssoRoutes } from './sso.routes.js';
import { langCookie } from './session-cookie.js';
import { accountsRoutes } from './accounts.routes.js';
import { smsLimitsRoutes } from './sms-limits.routes.js';
import { smsProviderRoutes } from './sms-provider.routes.js';
import { tokensRoutes } from './tokens.routes.js';
import { usersRoutes } from './users.routes.js';
import { passwordRoutes } from './password.routes.js';

/** The console's settings every route group shares. */
export interface ConsoleContext extends ConsoleDeps {
  /** The public origin a form may come from besides the Host (behind a proxy). */
  publicOrigin?: string;
  /** Whether cookies are Secure. */
  secure: boolean;
}

/** The owners' and operators' pages: the console's settings and the admin API's use cases. */
export type AdminContext = ConsoleContext & ConsoleAdminDeps;

const kindOf = (kind: string): MessageKind =>
  kind === 'not_found' ? 'notFound' : kind === 'permission_denied' ? 'forbidden' : kind === 'invalid' ? 'invalid' : 'error';

/**
 * Every console route, in one encapsulated plugin: its form parser, its error pages, the
 * language cookie and its style sheet stay here. Routes are pages for people, not API
 * operations: none is in the OpenAPI document (`hide`).
 */
export const consoleRoutes =
  (deps: ConsoleDeps): FastifyPluginAsync =>
  async (app) => {
    const base = deps.publicBaseUrl ? new URL(deps.publicBaseUrl) : undefined;
    const ctx: ConsoleContext = { ...deps, publicOrigin: base?.origin, secure: base?.protocol === 'https:' };

    // Strict UTF-8, raw and %-encoded, as the survey page reads its forms.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => {
      const text = decodeUtf8(body as Buffer);
      if (text === undefined || hasInvalidPercentUtf8(text)) return done(errors.invalid({ body: 'is not valid UTF-8' }), undefined);
      done(null, parseForm(text));
    });

    // A person reads these answers: errors are pages. What went wrong in a field is named (a bad date).
    app.setErrorHandler((err, req, reply) => {
      const e = toAppError(err as Error, req);
      if (e.kind === 'internal' || e.kind === 'unavailable') req.log.warn({ kind: e.kind }, e.message);
      const details = e.kind === 'invalid' ? Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`) : [];
      return sendHtml(reply, ERROR_TABLE[e.kind].http, messagePage(pageContext(req), kindOf(e.kind), details));
    });

    // ?lang= picks the language for the next pages too.
    app.addHook('onRequest', async (req: FastifyRequest, reply) => {
      const lang = consoleLang((req.query as { lang?: string } | undefined)?.lang);
      if (lang) reply.header('set-cookie', langCookie(lang, ctx));
    });

    app.get(CONSOLE_CSS_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').send(CONSOLE_CSS),
    );
    app.get(CONSOLE_ICON_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=31536000, immutable').send(CONSOLE_ICON),
    );

    await app.register(signInRoutes(ctx));
    await app.register(ssoRoutes(ctx));
    await app.register(campaignsRoutes(ctx));
    await app.register(sharingRoutes(ctx));
    // Uploads, opt-outs, responses and webhooks: each where its service is wired.
    const { files, smsData, maxUploadBytes, responses, flows, webhooks } = ctx;
    if (files && smsData && maxUploadBytes) await app.register(uploadsRoutes({ ...ctx, files, smsData, maxUploadBytes }));
    if (smsData) await app.register(optOutsRoutes({ ...ctx, smsData }));
    if (responses && flows) await app.register(responsesRoutes({ ...ctx, responses, flows }));
    if (webhooks) await app.register(webhooksRoutes({ ...ctx, webhooks }));
    // Users and tokens (owners), accounts, SMS provider and limits (operators).
    if (ctx.admin) {
      const admin = { ...ctx, ...ctx.admin };
      for (const routes of [usersRoutes, tokensRoutes, accountsRoutes, smsProviderRoutes, smsLimitsRoutes])
        await app.register(routes(admin));
    }
    // Everyone's own password (any role): the admin API's people use cases.
    if (ctx.admin) await app.register(passwordRoutes({ ...ctx, people: ctx.admin.people }));
  };
