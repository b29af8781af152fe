import { errors } from '@feedback/kit-core';
import { FileProcessingStatus, type File, type UploadMetadata } from '@feedback/proto/feedback/file/v1/file';
import type { DirectoryBinding, SmsOptOut } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import type { Delivery, Endpoint } from '@feedback/proto/feedback/webhooks/v1/webhooks';
import type { FlowQuestionsPort } from '../src/api/responses/responses.port.js';
import type { UploadStream } from '../src/api/files/files.port.js';
import {
  consoleFeature,
  type ConsoleFilesPort,
  type ConsoleResponsesPort,
  type ConsoleSmsDataPort,
  type ConsoleWebhooksPort,
} from '../src/console/console.feature.js';
import type { FakeSessions, FakeSms } from './console-fakes.js';
import { testApi } from './listeners.js';

/*
 * In-memory fakes of the file, messaging (bindings, opt-outs), survey and webhooks calls the
 * console's upload, opt-out, response and webhook pages make; each checks the account as the
 * services do (another account's id is NOT_FOUND).
 */

/** Files per account; an upload into a bound directory is processed at once: a row without a phone is refused. */
export class FakeFiles implements ConsoleFilesPort {
  files: File[] = [];
  directories = [
    { id: 'dir-1', accountId: 'acc-1', name: 'imports', createdAt: '2026-11-01T00:00:00.000Z' },
    { id: 'dir-9', accountId: 'acc-2', name: 'theirs', createdAt: '2026-11-01T00:00:00.000Z' },
  ];
  uploads: UploadMetadata[] = [];

  startUpload(meta: UploadMetadata): UploadStream {
    this.uploads.push(meta);
    const chunks: Buffer[] = [];
    return {
      write: async (chunk) => void chunks.push(chunk),
      finish: async (trailer) => {
        const text = Buffer.concat(chunks).toString('utf8');
        const lines = text.split(/\r?\n/).filter(Boolean).slice(1);
        const errs = lines.flatMap((l, i) => (/^\+?\d{10,}/.test(l) ? [] : [{ row: i + 2, reason: 'phone: is not a phone number' }]));
        const file: File = {
          id: `file-${this.files.length + 1}`,
          accountId: meta.accountId,
          directoryId: meta.directoryId,
          directoryName: this.directories.find((d) => d.id === meta.directoryId)?.name ?? '',
          filename: meta.filename || trailer || '',
          contentType: meta.contentType,
          size: Buffer.byteLength(text),
          sha256: '',
          blobToken: 'secret-blob-token',
          userId: meta.userId,
          createdAt: '2026-11-02T08:00:00.000Z',
          processingState: 3,
          processing: {
            status: FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED,
            sharingId: 'sh-1',
            rows: lines.length,
            accepted: lines.length - errs.length,
            rejected: errs.length,
            errors: errs,
            reason: '',
            processedAt: '2026-11-02T08:00:01.000Z',
          },
        };
        this.files.push(file);
        return file;
      },
      cancel: () => undefined,
    };
  }
  async getFile(req: { accountId: string; directoryId: string; fileId: string }) {
    const file = this.files.find((f) => f.id === req.fileId && f.accountId === req.accountId && f.directoryId === req.directoryId);
    if (!file) throw errors.notFound('file_id', req.fileId);
    return { file };
  }
  async listDirectories(req: { accountId: string }) {
    return { directories: this.directories.filter((d) => d.accountId === req.accountId) };
  }
}

/** Directory bindings and the opt-out list, per account, as messaging keeps them. */
export class FakeSmsData implements ConsoleSmsDataPort {
  constructor(private readonly sms: FakeSms) {}
  bindings: DirectoryBinding[] = [];
  optOuts: Array<SmsOptOut & { accountId: string }> = [];

  async listDirectoryBindings(req: { accountId: string; campaignId: string }) {
    if (!this.sms.campaigns.some((c) => c.id === req.campaignId && c.accountId === req.accountId))
      throw errors.notFound('campaign_id', req.campaignId);
    return { bindings: this.bindings.filter((b) => b.accountId === req.accountId && b.campaignId === req.campaignId) };
  }
  async addSmsOptOuts(req: { accountId: string; phoneNumbers: string[] }) {
    let added = 0;
    let already = 0;
    for (const raw of req.phoneNumbers) {
      const phone = raw.replace(/\D/g, '');
      if (phone.length < 10) throw errors.invalid({ phone_numbers: `${raw} is not a phone number` });
      if (this.optOuts.some((o) => o.accountId === req.accountId && o.phone === phone)) {
        already++;
        continue;
      }
      added++;
      this.optOuts.unshift({ accountId: req.accountId, phone, source: 'api', createdAt: '2026-11-02T08:00:00.000Z' });
    }
    return { added, already };
  }
  async listSmsOptOuts(req: { accountId: string; phone: string; pageSize: number; pageToken: string }) {
    const phone = req.phone.replace(/\D/g, '');
    const mine = this.optOuts.filter((o) => o.accountId === req.accountId && (!phone || o.phone === phone));
    const from = Number(req.pageToken || 0);
    return {
      optOuts: mine.slice(from, from + req.pageSize),
      nextPageToken: from + req.pageSize < mine.length ? String(from + req.pageSize) : '',
    };
  }
  async deleteSmsOptOut(req: { accountId: string; phone: string }) {
    const i = this.optOuts.findIndex((o) => o.accountId === req.accountId && o.phone === req.phone.replace(/\D/g, ''));
    if (i < 0) throw errors.notFound('phone', req.phone);
    this.optOuts.splice(i, 1);
    return {};
  }
}

export function responseOf(id: string, accountId: string, extra: Partial<SurveyResponse> = {}): SurveyResponse {
  return {
    id,
    accountId,
    flowId: 'f',
    channelId: 'c',
    nodeId: 'n',
    customerId: 'cu',
    linkId: 'l',
    answers: [
      { questionKey: 'nps', optionKeys: [], number: 9 },
      { questionKey: 'why', optionKeys: [], text: 'Fast' },
    ],
    builtInResponses: {},
    answeredAt: '2026-11-02T09:30:00.000Z',
    ...extra,
  };
}

/** Responses per account; the filters as the survey service reads them (channel, since, until), a page at a time. */
export class FakeResponses implements ConsoleResponsesPort, FlowQuestionsPort {
  responses: SurveyResponse[] = [];
  requests: Array<{ channelId: string; since: string; until: string; pageSize: number }> = [];

  async listResponses(req: { accountId: string; channelId: string; since: string; until: string; pageSize: number; pageToken: string }) {
    this.requests.push({ channelId: req.channelId, since: req.since, until: req.until, pageSize: req.pageSize });
    const mine = this.responses.filter(
      (r) =>
        r.accountId === req.accountId &&
        (!req.channelId || r.channelId === req.channelId) &&
        (!req.since || r.answeredAt >= req.since) &&
        (!req.until || r.answeredAt < req.until),
    );
    const from = Number(req.pageToken || 0);
    return {
      responses: mine.slice(from, from + req.pageSize),
      nextPageToken: from + req.pageSize < mine.length ? String(from + req.pageSize) : '',
    };
  }
  async getResponse(req: { accountId: string; responseId: string }) {
    const response = this.responses.find((r) => r.id === req.responseId && r.accountId === req.accountId);
    if (!response) throw errors.notFound('response_id', req.responseId);
    return { response };
  }
  async getFlow(req: { accountId: string; flowId: string }) {
    return {
      flow: {
        id: req.flowId,
        questions: [
          { key: 'nps', style: 'nps' },
          { key: 'why', style: 'text' },
        ],
      },
    } as unknown as Awaited<ReturnType<FlowQuestionsPort['getFlow']>>;
  }
}

/** Endpoints and deliveries per account; a rotate answers a new secret. */
export class FakeWebhooks implements ConsoleWebhooksPort {
  endpoints: Endpoint[] = [];
  deliveries: Delivery[] = [];
  replays: string[] = [];
  updates: Array<{ enabled?: boolean; byOperator: boolean }> = [];
  private secrets = 0;

  private endpoint(accountId: string, id: string) {
    const e = this.endpoints.find((x) => x.id === id && x.accountId === accountId);
    if (!e) throw errors.notFound('endpoint_id', id);
    return e;
  }
  async createEndpoint(req: { accountId: string; url: string; events: string[]; description: string }) {
    if (!req.url.startsWith('https://')) throw errors.invalid({ url: 'must be an https URL' });
    if (req.events.length === 0) throw errors.invalid({ events: 'must list at least one event' });
    const endpoint: Endpoint = {
      id: `ep-${this.endpoints.length + 1}`,
      accountId: req.accountId,
      url: req.url,
      events: req.events,
      description: req.description,
      enabled: true,
      disabledReason: '',
      createdAt: '2026-11-02T08:00:00.000Z',
      updatedAt: '2026-11-02T08:00:00.000Z',
      previousSecretExpiresAt: '',
    };
    this.endpoints.push(endpoint);
    return { endpoint, secret: `whsec_new${++this.secrets}` };
  }
  async getEndpoint(req: { accountId: string; endpointId: string }) {
    return { endpoint: this.endpoint(req.accountId, req.endpointId) };
  }
  async listEndpoints(req: { accountId: string }) {
    return { endpoints: this.endpoints.filter((e) => e.accountId === req.accountId), nextPageToken: '' };
  }
  async updateEndpoint(req: { accountId: string; endpointId: string; enabled?: boolean; byOperator: boolean }) {
    const e = this.endpoint(req.accountId, req.endpointId);
    this.updates.push({ enabled: req.enabled, byOperator: req.byOperator });
    if (req.enabled !== undefined) e.enabled = req.enabled;
    return { endpoint: e };
  }
  async rotateSecret(req: { accountId: string; endpointId: string }) {
    const e = this.endpoint(req.accountId, req.endpointId);
    e.previousSecretExpiresAt = '2026-11-03T08:00:00.000Z';
    return { endpoint: e, secret: `whsec_rotated${++this.secrets}` };
  }
  async listDeliveries(req: { accountId: string; endpointId: string }) {
    this.endpoint(req.accountId, req.endpointId);
    return { deliveries: this.deliveries.filter((d) => d.endpointId === req.endpointId), nextPageToken: '' };
  }
  async replayDelivery(req: { accountId: string; endpointId: string; deliveryId: string }) {
    this.endpoint(req.accountId, req.endpointId);
    if (!this.deliveries.some((d) => d.id === req.deliveryId && d.endpointId === req.endpointId))
      throw errors.notFound('delivery_id', req.deliveryId);
    this.replays.push(req.deliveryId);
    return {};
  }
}

export interface DataFakes {
  files: FakeFiles;
  smsData: FakeSmsData;
  responses: FakeResponses;
  webhooks: FakeWebhooks;
}

/** The API listener with the console's data pages on these fakes; accounts acc-1 and acc-2 exist. */
export async function consoleDataApi(sessions: FakeSessions, sms: FakeSms, fakes: DataFakes) {
  const names: Record<string, string> = { 'acc-1': 'Shop One', 'acc-2': 'Shop Two' };
  return testApi({
    features: [
      consoleFeature({
        sessions,
        sms,
        accounts: { findById: async (id) => (names[id] ? { id, name: names[id], createdAt: new Date(0) } : null) },
        publicBaseUrl: 'http://localhost:8080',
        displayTimeZone: 'UTC',
        clock: { now: () => new Date('2026-11-02T08:00:00.000Z') },
        files: fakes.files,
        maxUploadBytes: 10_000,
        smsData: fakes.smsData,
        responses: fakes.responses,
        flows: fakes.responses,
        webhooks: fakes.webhooks,
      }),
    ],
  });
}
