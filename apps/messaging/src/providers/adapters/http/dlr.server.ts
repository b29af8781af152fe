import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nameBasedUuid, type Logger } from '@feedback/kit-core';
import { receiveDeliveryReport, type DeliveryRule } from '../../../status/domain/delivery-report.js';
import type { StatusDeps } from '../../../status/ports.js';
import { verifyInboundSms, verifyMessageId } from './dlr-signature.js';

export interface DlrServerOptions {
  host: string;
  port: number;
  secret: string;
  /**
   * The deployment provider's status field and codes, for messages recorded without a rule of
   * their own; a message records the rule of the provider that sent it (an account's own one).
   */
  statusParam: string;
  rule: DeliveryRule;
  deps: Pick<StatusDeps, 'messages' | 'reportEvents' | 'clock'>;
  logger: Logger;
  /** Inbound SMS (`/sms/mo`, signed: dlr-signature.ts inboundSmsUrl); without it the path is 404. */
  inbound?: (sms: { from: string; text: string }) => Promise<unknown>;
}

export interface RunningDlrServer {
  server: Server;
  /** http://host:port, for building callback URLs in tests. */
  url: string;
  close(): Promise<void>;
}

const PATH = /^\/sms\/dlr\/([A-Za-z0-9._-]{1,200})$/;

/**
 * The delivery-report listener: providers call `/sms/dlr/<message id>?sig=...&<status>=...`
 * (GET, or POST with a form or JSON body). It is internal, reached by the SMS gateway, not part
 * of the public API. 200 once applied (or a mere progress report), 403 on a bad signature,
 * 404 for an unknown message; providers retry on 5xx. With `inbound`, it also takes inbound SMS at
 * `/sms/mo?sig=...&from=<sender>&text=<text>` (the opt-out keywords, opt-out.use-cases.ts).
 */
export async function startDlrServer(opts: DlrServerOptions): Promise<RunningDlrServer> {
  const log = opts.logger.child({ component: 'dlr-server' });
  const fallback = { statusParam: opts.statusParam, ...opts.rule };
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? '/', 'http://dlr');
        if (url.pathname === '/sms/mo' && opts.inbound && (req.method === 'GET' || req.method === 'POST')) {
          if (!verifyInboundSms(opts.secret, url.searchParams.get('sig') ?? '')) return reply(403, 'bad signature');
          const fields = { ...Object.fromEntries(url.searchParams), ...(req.method === 'POST' ? await readBody(req) : {}) };
          const from = String(fields.from ?? '');
          if (!from) return reply(400, 'missing from');
          const outcome = await opts.inbound({ from, text: String(fields.text ?? '') });
          log.debug({ outcome }, 'inbound sms');
          // An empty answer: the SMS gateway sends no reply of its own (a confirmation goes through the provider).
          return reply(200, '');
        }
        const m = PATH.exec(url.pathname);
        if (!m || (req.method !== 'GET' && req.method !== 'POST')) return reply(404, 'not found');
        const messageId = m[1]!;
        if (!verifyMessageId(opts.secret, messageId, url.searchParams.get('sig') ?? '')) return reply(403, 'bad signature');
        const fields = { ...Object.fromEntries(url.searchParams), ...(req.method === 'POST' ? await readBody(req) : {}) };
        const outcome = await receiveDeliveryReport(opts.deps, { messageId, fields }, fallback);
        // The message id is `<sharing>.<phone>`: logged as its name-based UUID, never as it is.
        if (outcome === 'applied_unpublished')
          log.warn({ message: nameBasedUuid(messageId) }, 'delivery report applied; its sms.status event is left to the relay');
        else log.debug({ message: nameBasedUuid(messageId), outcome }, 'delivery report');
        if (outcome === 'unknown_message') return reply(404, 'unknown message');
        if (outcome === 'missing_status') return reply(400, 'missing status field');
        return reply(200, outcome);
      } catch (err) {
        log.error({ err }, 'delivery report failed');
        return reply(500, 'error');
      }
    })();
    function reply(status: number, text: string) {
      res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    }
  });
  server.listen(opts.port, opts.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { address, port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${address}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 64 * 1024) throw new Error('delivery report body too large');
  }
  if (!text) return {};
  if ((req.headers['content-type'] ?? '').includes('json')) return JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(text));
}
