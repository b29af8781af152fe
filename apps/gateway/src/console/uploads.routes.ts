import multipart from '@fastify/multipart';
import { Type } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MULTIPART_OVERHEAD_BYTES, receiveUpload, tooLarge, type UploadTarget } from '../api/files/multipart-upload.js';
import { accountScope } from './account-scope.js';
import { accountPickerPage } from './campaigns.views.js';
import type { ConsoleFilesPort, ConsoleSmsDataPort } from './console.feature.js';
import type { ConsoleContext } from './console.routes.js';
import { canAct, pageContext, scoped, sendHtml, viewerOf } from './console-page.js';
import { refuseForeignPost, requireSession } from './console-session.js';
import { csrfMatches } from './csrf.js';
import { messagePage } from './layout.views.js';
import { uploadOutcomePage, uploadsPage } from './uploads.views.js';

/** Enough to list an account's campaigns in the chooser in one read (messaging's list has no search). */
const CAMPAIGNS_SHOWN = 200;
const Id = Type.String({ minLength: 1, maxLength: 100 });
const ListQuery = Type.Object({
  account: Type.Optional(Id),
  campaign: Type.Optional(Type.Union([Id, Type.Literal('')])),
  lang: Type.Optional(Type.String()),
});
const OutcomeParams = Type.Object({ directory: Id, file: Id });
const OutcomeQuery = Type.Object({ account: Type.Optional(Id), lang: Type.Optional(Type.String()) });

/**
 * Uploading a CSV into a directory bound to a campaign, and what the workflow made of it. The
 * form is the file API's multipart body (the same streaming, limits and errors: multipart-upload.ts),
 * with the CSRF token and the chosen binding sent before the file so that a refused form stores nothing.
 */
export const uploadsRoutes =
  (ctx: ConsoleContext & { files: ConsoleFilesPort; smsData: ConsoleSmsDataPort; maxUploadBytes: number }): FastifyPluginAsync =>
  async (app) => {
    await app.register(multipart);
    app.addHook('onRequest', requireSession(ctx.sessions));
    const tz = ctx.displayTimeZone;

    // As the file API: an error answered before the body was read closes the connection rather than reading on.
    app.addHook('onSend', async (req, reply) => {
      if (req.method === 'POST' && reply.statusCode >= 400 && !req.raw.complete) reply.header('connection', 'close');
    });

    app.get('/console/uploads', { schema: { hide: true, querystring: ListQuery } }, async (req, reply) => {
      const viewer = viewerOf(req);
      const query = req.query as { account?: string; campaign?: string };
      const page = pageContext(req, viewer);
      const scope = await accountScope(ctx.accounts, viewer, query.account);
      if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
      const { accountId } = scope;
      const { campaigns } = await ctx.sms.listSmsCampaigns({ accountId, pageSize: CAMPAIGNS_SHOWN, pageToken: '' });
      const campaignId = query.campaign || campaigns[0]?.id || '';
      // Another account's campaign: messaging answers NOT_FOUND, the error handler the 404 page.
      const [bindings, directories] = campaignId
        ? await Promise.all([
            ctx.smsData.listDirectoryBindings({ accountId, campaignId }).then((r) => r.bindings),
            ctx.files.listDirectories({ accountId }).then((r) => r.directories),
          ])
        : [[], []];
      const names = new Map(directories.map((d) => [d.id, d.name]));
      return sendHtml(
        reply,
        200,
        uploadsPage(page, {
          viewer,
          accountId,
          campaigns,
          campaignId,
          bindings: bindings.map((b) => ({
            directoryId: b.directoryId,
            directoryName: names.get(b.directoryId) ?? b.directoryId,
            fileName: b.fileName,
          })),
          maxUploadBytes: ctx.maxUploadBytes,
        }),
      );
    });

    // Cheap refusals before a byte of the body is read: another site, a viewer, too large, not multipart.
    const checkHeaders = async (req: FastifyRequest, reply: FastifyReply) => {
      if (refuseForeignPost(req, reply, ctx.publicOrigin)) return reply;
      const viewer = viewerOf(req);
      if (!canAct(viewer.role)) return sendHtml(reply, 403, messagePage(pageContext(req, viewer), 'forbidden'));
      if (!/^multipart\/form-data\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        throw errors.unsupportedMediaType({ 'content-type': 'must be multipart/form-data' });
      }
      if (Number(req.headers['content-length']) > ctx.maxUploadBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(ctx.maxUploadBytes);
    };

    app.post('/console/uploads', { schema: { hide: true }, onRequest: checkHeaders }, async (req, reply) => {
      const viewer = viewerOf(req);
      let accountId = '';
      let directoryId = '';
      // Read from the fields sent before the file: the session's CSRF token, then the binding the page offered.
      const target = async (fields: ReadonlyMap<string, string>): Promise<UploadTarget> => {
        if (!csrfMatches(fields.get('_csrf'), viewer.csrfToken)) throw errors.permissionDenied();
        const scope = await accountScope(ctx.accounts, viewer, fields.get('account'));
        if (!scope) throw errors.invalid({ account: 'is required' });
        const campaignId = fields.get('campaign') ?? '';
        directoryId = fields.get('directory_id') ?? '';
        const fileName = fields.get('filename') ?? '';
        if (!campaignId) throw errors.invalid({ campaign: 'is required' });
        const { bindings } = await ctx.smsData.listDirectoryBindings({ accountId: scope.accountId, campaignId });
        if (!bindings.some((b) => b.directoryId === directoryId && b.fileName === fileName))
          throw errors.notFound('directory_id', directoryId);
        accountId = scope.accountId;
        return { accountId, directoryId, userId: viewer.userId };
      };
      const file = await receiveUpload(req, ctx.files, target, ctx.maxUploadBytes);
      return reply.redirect(
        scoped(`/console/uploads/${encodeURIComponent(directoryId)}/files/${encodeURIComponent(file.id)}`, viewer, accountId),
        303,
      );
    });

    app.get(
      '/console/uploads/:directory/files/:file',
      { schema: { hide: true, params: OutcomeParams, querystring: OutcomeQuery } },
      async (req, reply) => {
        const viewer = viewerOf(req);
        const { directory, file: fileId } = req.params as { directory: string; file: string };
        const page = pageContext(req, viewer);
        const scope = await accountScope(ctx.accounts, viewer, (req.query as { account?: string }).account);
        if (!scope) return sendHtml(reply, 200, accountPickerPage(page));
        // Another account's file: the file service answers NOT_FOUND.
        const { file } = await ctx.files.getFile({ accountId: scope.accountId, directoryId: directory, fileId });
        if (!file) throw errors.notFound('file_id', fileId);
        return sendHtml(reply, 200, uploadOutcomePage(page, { viewer, accountId: scope.accountId, file }, tz));
      },
    );
  };
