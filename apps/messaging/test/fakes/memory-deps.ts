import { errors, pageOf, type PageQuery } from '@feedback/kit-core';
import type { AccountProvider, AccountProviderSettings } from '../../src/providers/domain/account-provider.js';
import type { DirectoryBinding } from '../../src/csv-workflow/domain/directory-binding.js';
import { dispatchSms } from '../../src/dispatch/domain/dispatch.use-cases.js';
import { type SendOutcome } from '../../src/dispatch/domain/dispatch-results.js';
import type { CampaignRepository } from '../../src/campaigns/ports.js';
import type { BindingRepository, WorkflowFiles } from '../../src/csv-workflow/ports.js';
import type { DispatchDeps } from '../../src/dispatch/ports.js';
import type { DispatchPublisher, LinkShortener } from '../../src/shared/ports.js';
import type { OptOutRepository } from '../../src/opt-outs/ports.js';
import type { TextedPhones } from '../../src/shared/ports.js';
import type {
  AccountProviderRepository,
  ProviderCache,
  OutgoingSms,
  ProviderResult,
  SmsProvider,
  SmsProviderResolver,
} from '../../src/providers/ports.js';
import type { JobRepository, SharingJob } from '../../src/scheduling/ports.js';
import type {
  Clock,
  FinishedAttempt,
  MessageRepository,
  NewMessage,
  RecipientWriter,
  SharingListQuery,
  SharingRepository,
  SurveyLinks,
} from '../../src/shared/ports.js';
import type { CompletionEvents, ReportEvents, SharingCompletion } from '../../src/status/ports.js';
import type { OptOutSource, SmsOptOut } from '../../src/opt-outs/domain/opt-out.js';
import type { DispatchEvent, Recipient, SmsCampaign, SmsSharing } from '../../src/shared/domain/sharing.js';
import {
  REPORTABLE_STATUSES,
  unsentRecord,
  type DeliveryError,
  type DeliveryStatus,
  type MessageStatus,
  type SmsMessage,
} from '../../src/shared/domain/sms-message.js';

/** Short links nobody followed. */
export const noClicks: LinkShortener['countClicked'] = async () => 0;

/** Survey links of no phone: every state `none`. */
export const noLinkStates: SurveyLinks['statesOf'] = async (_accountId, _channelId, phones) => phones.map(() => 'none' as const);

/** What dispatchSms is handed. */
export type DispatchPorts = Pick<
  DispatchDeps,
  'campaigns' | 'links' | 'shortener' | 'messages' | 'providers' | 'statusEvents' | 'clock' | 'optOuts' | 'sharings'
>;

/** A campaign as tests need one: the given ids, a template that is just the link. */
export const campaignOf = (c: Pick<SmsCampaign, 'id' | 'accountId'> & Partial<SmsCampaign>): SmsCampaign => ({
  name: 'c',
  nodeId: 'n',
  flowId: 'f',
  channelId: 'ch',
  messageTemplate: '{{link}}',
  createdAt: new Date(),
  sendWindow: null,
  reminders: [],
  transliterate: false,
  ...c,
});

/** In-memory ports for domain rules only; the Mongo adapters are tested against the real server. */
export class MemoryCampaigns implements CampaignRepository {
  readonly items = new Map<string, SmsCampaign>();
  async insert(c: SmsCampaign) {
    this.items.set(c.id, c);
  }
  async findById(accountId: string, id: string) {
    const c = this.items.get(id);
    return c && c.accountId === accountId ? c : null;
  }
  async page(accountId: string, page: PageQuery) {
    const mine = [...this.items.values()].filter((c) => c.accountId === accountId);
    return pageOf(mine, page, (c) => ({ at: c.createdAt, id: c.id }));
  }
  async update(accountId: string, id: string, changes: Partial<SmsCampaign>) {
    const c = await this.findById(accountId, id);
    if (!c) return null;
    const updated = { ...c, ...changes };
    this.items.set(id, updated);
    return updated;
  }
}

export class MemorySharings implements SharingRepository {
  readonly items = new Map<string, { sharing: SmsSharing; recipients: Recipient[] }>();
  /** Recipients written for sharings not completed (yet). */
  readonly pending = new Map<string, Recipient[]>();
  /** Per sharing: whether its sensitive attributes were to be kept (sealed) when written. */
  readonly keepSensitive = new Map<string, boolean>();
  /** Sharings whose kept sensitive attributes were dropped, in order. */
  readonly droppedSensitive: string[] = [];
  async dropSensitiveAttributes(sharingId: string) {
    this.droppedSensitive.push(sharingId);
  }
  writeRecipients(sharingId: string, opts: { keepSensitive?: boolean } = {}): RecipientWriter {
    this.keepSensitive.set(sharingId, opts.keepSensitive ?? false);
    const written: Recipient[] = [];
    this.pending.set(sharingId, written);
    return {
      add: async (recipients: Recipient[]) => {
        written.push(...recipients);
      },
      complete: async (sharing: SmsSharing) => {
        this.pending.delete(sharingId);
        this.items.set(sharing.id, { sharing, recipients: written });
      },
    };
  }
  async findById(accountId: string, id: string) {
    const s = this.items.get(id)?.sharing;
    return s && s.accountId === accountId ? s : null;
  }
  async recipientPhonesAt(sharingId: string, index: number) {
    // As the Mongo repository: up to 1,000 recipients a document.
    const all = this.items.get(sharingId)?.recipients ?? [];
    return index * 1_000 < all.length ? all.slice(index * 1_000, (index + 1) * 1_000).map((r) => r.phone) : null;
  }
  async hasRecipient(sharingId: string, phone: string) {
    return (this.items.get(sharingId)?.recipients ?? []).some((r) => r.phone === phone);
  }
  async listRecipientPhones(sharingId: string) {
    return (this.items.get(sharingId)?.recipients ?? []).map((r) => r.phone).sort();
  }
  async *recipientPages(sharingId: string) {
    const all = this.items.get(sharingId)?.recipients ?? [];
    for (let from = 0; from < all.length; from += 1_000) yield all.slice(from, from + 1_000);
  }
  async cancel(accountId: string, id: string, at: Date) {
    const s = await this.findById(accountId, id);
    if (!s) return null;
    s.cancelledAt ??= at;
    return { ...s };
  }
  readonly completed = new Map<string, Date>();
  async incomplete(q: { since: Date; now: Date; after: { createdAt: Date; id: string } | null; limit: number }) {
    const key = (s: { createdAt: Date; id: string }) => `${s.createdAt.toISOString()}\u0000${s.id}`;
    return [...this.items.values()]
      .map((i) => i.sharing)
      .filter((s) => !this.completed.has(s.id) && s.accepted > 0 && s.createdAt >= q.since)
      .filter((s) => !s.scheduledFor || s.scheduledFor <= q.now)
      .filter((s) => !q.after || key(s) > key(q.after))
      .sort((a, b) => (key(a) < key(b) ? -1 : 1))
      .slice(0, q.limit)
      .map((s) => ({ ...s }));
  }
  /** Makes noteSettled throw (a note lost to a crash), while set. */
  failNotes = false;
  async noteSettled(counts: ReadonlyMap<string, number>, at: Date) {
    if (this.failNotes) throw new Error('database unavailable');
    for (const [id, n] of counts) {
      const s = this.items.get(id)?.sharing;
      if (s) Object.assign(s, { settledFirsts: (s.settledFirsts ?? 0) + n, progressedAt: at });
    }
  }
  async markCompleted(id: string, at: Date) {
    if (!this.completed.has(id)) this.completed.set(id, at);
  }
  async list(q: SharingListQuery) {
    const found = [...this.items.values()]
      .map((i): SmsSharing => {
        const completedAt = this.completed.get(i.sharing.id);
        return completedAt ? { ...i.sharing, completedAt } : { ...i.sharing };
      })
      .filter((s) => s.accountId === q.accountId && (!q.campaignId || s.campaignId === q.campaignId))
      .filter((s) => (!q.createdAfter || s.createdAt >= q.createdAfter) && (!q.createdBefore || s.createdAt < q.createdBefore))
      .filter((s) => !q.accept || q.accept(s));
    return pageOf(found, q.page, (s) => ({ at: s.createdAt, id: s.id }));
  }
}

/** Waiting steps in memory, with the Mongo adapter's lease rules (one lead, one taker per step). */
export class MemoryJobs implements JobRepository {
  readonly items = new Map<
    string,
    SharingJob & { state: 'waiting' | 'running' | 'done' | 'cancelled'; owner: string | null; leaseUntil: Date | null }
  >();
  private leader: { owner: string; until: Date } | null = null;
  async schedule(jobs: SharingJob[]) {
    for (const j of jobs) if (!this.items.has(j.id)) this.items.set(j.id, { ...j, state: 'waiting', owner: null, leaseUntil: null });
  }
  async lead(owner: string, now: Date, until: Date) {
    if (this.leader && this.leader.owner !== owner && this.leader.until >= now) return false;
    this.leader = { owner, until };
    return true;
  }
  async claimDue(now: Date, owner: string, leaseUntil: Date) {
    const due = [...this.items.values()]
      .filter((j) => (j.state === 'waiting' && j.dueAt <= now) || (j.state === 'running' && j.leaseUntil! < now))
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())[0];
    if (!due) return null;
    Object.assign(due, { state: 'running', owner, leaseUntil });
    return {
      id: due.id,
      accountId: due.accountId,
      sharingId: due.sharingId,
      campaignId: due.campaignId,
      reminder: due.reminder,
      dueAt: due.dueAt,
    };
  }
  async renew(id: string, owner: string, leaseUntil: Date) {
    const j = this.items.get(id);
    if (!j || j.owner !== owner || j.state !== 'running') return false;
    j.leaseUntil = leaseUntil;
    return true;
  }
  async postpone(id: string, owner: string, dueAt: Date) {
    const j = this.items.get(id);
    if (j && j.owner === owner && j.state === 'running') Object.assign(j, { state: 'waiting', dueAt, owner: null, leaseUntil: null });
  }
  async finish(id: string, owner: string) {
    const j = this.items.get(id);
    if (j && j.owner === owner && j.state === 'running') j.state = 'done';
  }
  async cancelBySharing(sharingId: string) {
    let n = 0;
    for (const j of this.items.values())
      if (j.sharingId === sharingId && (j.state === 'waiting' || j.state === 'running')) {
        j.state = 'cancelled';
        n++;
      }
    return n;
  }
}

export class MemoryDispatch implements DispatchPublisher {
  readonly events: DispatchEvent[] = [];
  batch() {
    const added: DispatchEvent[] = [];
    return {
      add: (events: DispatchEvent[]) => void added.push(...events),
      send: async () => void this.events.push(...added),
    };
  }
}

export class MemoryMessages implements MessageRepository {
  readonly items = new Map<string, SmsMessage>();
  async findMany(ids: string[]) {
    return ids.flatMap((id) => (this.items.has(id) ? [{ ...this.items.get(id)! }] : []));
  }
  async claimMany(msgs: NewMessage[]) {
    const claims: (SmsMessage | null)[] = [];
    for (const m of msgs) claims.push(this.items.has(m.id) ? null : await this.claim(m));
    return claims;
  }
  async recordMany(msgs: SmsMessage[]) {
    return msgs.map((m) => (this.items.has(m.id) ? false : (this.items.set(m.id, { ...m }), true)));
  }
  async finishMany(items: FinishedAttempt[]) {
    for (const { id, attempt, at, ...o } of items) {
      const m = this.items.get(id);
      if (!m || m.status !== 'sending' || m.attempts !== attempt) continue;
      Object.assign(m, { status: o.status, providerMessageId: o.providerMessageId ?? null, error: o.error ?? null, updatedAt: at });
    }
  }
  async claim(m: NewMessage, opts: { takeOverSending?: boolean } = {}) {
    const existing = this.items.get(m.id);
    if (!existing) {
      const msg: SmsMessage = { ...m, status: 'sending', attempts: 1, providerMessageId: null, error: null, updatedAt: m.createdAt };
      this.items.set(m.id, msg);
      return { ...msg };
    }
    if (existing.status !== 'retryable' && !(opts.takeOverSending && existing.status === 'sending')) return null;
    // As the Mongo repository: the provider of this attempt and its report rule.
    Object.assign(existing, { status: 'sending', text: m.text, provider: m.provider, deliveryRule: m.deliveryRule });
    existing.attempts++;
    return { ...existing };
  }
  /** Records whose report event is owed, and since when (the Mongo repository's `report_owed`). */
  readonly reportsOwed = new Map<string, Date>();
  async applyDeliveryReport(id: string, status: DeliveryStatus, at: Date, error?: DeliveryError) {
    const m = this.items.get(id);
    if (!m || !REPORTABLE_STATUSES.includes(m.status)) return null;
    Object.assign(m, { status, updatedAt: at, ...(error && { deliveryError: { ...error } }) });
    this.reportsOwed.set(id, at);
    return { ...m };
  }
  async reportPublished(id: string, status: DeliveryStatus) {
    if (this.items.get(id)?.status === status) this.reportsOwed.delete(id);
  }
  async unpublishedReports(before: Date, limit: number) {
    return [...this.reportsOwed]
      .filter(([, at]) => at <= before)
      .sort(([, a], [, b]) => a.getTime() - b.getTime())
      .slice(0, limit)
      .map(([id]) => ({ ...this.items.get(id)! }));
  }
  async findById(id: string) {
    return this.items.get(id) ?? null;
  }
  async listBySharing(sharingId: string) {
    return [...this.items.values()].filter((m) => m.sharingId === sharingId);
  }
  async cancelUnclaimed(c: { accountId: string; sharingId: string; campaignId: string; phones: string[]; at: Date }) {
    const written: SmsMessage[] = [];
    for (const phone of c.phones) {
      const record = unsentRecord({ ...c, phone, status: 'cancelled' });
      if (this.items.has(record.id)) continue;
      this.items.set(record.id, record);
      written.push({ ...record });
    }
    for (const m of this.items.values())
      if (m.sharingId === c.sharingId && m.status === 'retryable') Object.assign(m, { status: 'cancelled', updatedAt: c.at });
    return written;
  }
  async firstsByStatus(sharingId: string) {
    const counts: Partial<Record<MessageStatus, number>> = {};
    for (const m of this.items.values()) if (m.sharingId === sharingId && !m.reminder) counts[m.status] = (counts[m.status] ?? 0) + 1;
    return counts;
  }
  async firstsWithStatus(q: { sharingId: string; status: MessageStatus; after: string; limit: number; near?: string }) {
    return [...this.items.values()]
      .filter((m) => m.sharingId === q.sharingId && !m.reminder && m.status === q.status && m.phone > q.after)
      .map((m) => m.phone)
      .sort()
      .slice(0, q.limit);
  }
}

/** sms.status events of delivery reports as published, repeats included, by event id as the Kafka adapter names them; `failNext` makes that many publishes throw. */
export class MemoryReportEvents implements ReportEvents {
  readonly events: { eventId: string; message: SmsMessage }[] = [];
  failNext = 0;
  async reported(msgs: SmsMessage[]) {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('broker unavailable');
    }
    for (const m of msgs) this.events.push({ eventId: `${m.id}:${m.status}`, message: { ...m } });
  }
}

/** sharing.completed events as published, repeats included; `failNext` makes that many publishes throw. */
export class MemoryCompletions implements CompletionEvents {
  readonly events: SharingCompletion[] = [];
  failNext = 0;
  async completed(c: SharingCompletion) {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('broker unavailable');
    }
    this.events.push(c);
  }
}

/** Suppression lists in memory, paged as the Mongo adapter pages them (newest first, ties by phone as by _id). */
export class MemoryOptOuts implements OptOutRepository {
  readonly items: SmsOptOut[] = [];
  /** How many times `findOptedOut` was asked (one query per slice, per account of a batch). */
  queries = 0;
  async addMany(e: { accountId: string; phones: string[]; source: OptOutSource; at: Date }) {
    return e.phones.map((phone) => {
      if (this.items.some((o) => o.accountId === e.accountId && o.phone === phone)) return false;
      this.items.push({ accountId: e.accountId, phone, source: e.source, createdAt: e.at });
      return true;
    });
  }
  async findOptedOut(accountId: string, phones: string[]) {
    this.queries++;
    return new Set(phones.filter((p) => this.items.some((o) => o.accountId === accountId && o.phone === p)));
  }
  async list(q: { accountId: string; phone?: string; page: PageQuery }) {
    const mine = this.items.filter((o) => o.accountId === q.accountId && (!q.phone || o.phone === q.phone));
    return pageOf(mine, q.page, (o) => ({ at: o.createdAt, id: o.phone }));
  }
  async remove(accountId: string, phone: string) {
    const i = this.items.findIndex((o) => o.accountId === accountId && o.phone === phone);
    if (i >= 0) this.items.splice(i, 1);
    return i >= 0;
  }
}

/** Who texted a phone, read from the message records in memory. */
export const textedPhonesOf = (messages: MemoryMessages): TextedPhones => ({
  accountsThatTexted: async (phone) => [...new Set([...messages.items.values()].filter((m) => m.phone === phone).map((m) => m.accountId))],
});

/** The same provider for every account (no account has its own). */
export const oneProvider = (provider: SmsProvider): SmsProviderResolver => ({ forAccount: async () => provider });

/**
 * One SMS through the dispatch path with the given records and provider, and every other port
 * in memory: the campaign's template is the link and the link is `text`, so the provider is
 * handed `text`. The event's error is thrown.
 */
export async function sendOne(
  deps: { messages: MessageRepository; provider: SmsProvider; clock: Clock },
  cmd: { accountId: string; sharingId: string; campaignId: string; phone: string; text: string },
): Promise<SendOutcome> {
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: cmd.campaignId, accountId: cmd.accountId, createdAt: deps.clock.now() }));
  return dispatchOne(
    {
      campaigns,
      links: { activateMany: async (items) => items.map(() => cmd.text), statesOf: noLinkStates },
      shortener: { shortenMany: async (urls) => urls, countClicked: noClicks },
      messages: deps.messages,
      providers: oneProvider(deps.provider),
      optOuts: new MemoryOptOuts(),
      sharings: new MemorySharings(),
      statusEvents: { changedMany: async () => undefined },
      clock: deps.clock,
    },
    {
      sharingId: cmd.sharingId,
      accountId: cmd.accountId,
      campaignId: cmd.campaignId,
      recipient: { phone: cmd.phone, input: cmd.phone, attributes: {}, builtInResponses: {} },
      reminder: 0,
    },
  );
}

/** One event, a batch of one; its error thrown, as the dispatch consumer's handler does. */
export async function dispatchOne(deps: DispatchPorts, event: DispatchEvent): Promise<SendOutcome> {
  const [result] = await dispatchSms(deps, [event]);
  if (result instanceof Error) throw result;
  return result!;
}

/** Answers with the scripted results in turn (the last one repeats) and records every call. */
export class ScriptedProvider implements SmsProvider {
  readonly name = 'scripted';
  readonly calls: OutgoingSms[] = [];
  constructor(
    private readonly results: (ProviderResult | Error)[],
    readonly idempotent = false,
  ) {}
  async send(sms: OutgoingSms): Promise<ProviderResult> {
    this.calls.push(sms);
    const r = this.results[Math.min(this.calls.length - 1, this.results.length - 1)]!;
    if (r instanceof Error) throw r;
    return r;
  }
}

/** One binding per directory and file name, as the unique index makes it. */
export class MemoryBindings implements BindingRepository {
  readonly items = new Map<string, DirectoryBinding>();
  async upsert(b: DirectoryBinding) {
    const key = `${b.directoryId}/${b.fileName}`;
    const kept = { ...b, createdAt: this.items.get(key)?.createdAt ?? b.createdAt };
    this.items.set(key, kept);
    return kept;
  }
  async find(directoryId: string, fileName: string) {
    return this.items.get(`${directoryId}/${fileName}`) ?? null;
  }
  async listByCampaign(accountId: string, campaignId: string) {
    return [...this.items.values()]
      .filter((b) => b.accountId === accountId && b.campaignId === campaignId)
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }
  async remove(b: Pick<DirectoryBinding, 'accountId' | 'campaignId' | 'directoryId' | 'fileName'>) {
    const key = `${b.directoryId}/${b.fileName}`;
    const found = this.items.get(key);
    if (!found || found.accountId !== b.accountId || found.campaignId !== b.campaignId) return false;
    return this.items.delete(key);
  }
}

/** Account providers in memory; `sealed: false` stands for a deployment without a key. */
export class MemoryAccountProviders implements AccountProviderRepository {
  readonly items = new Map<string, AccountProvider>();
  constructor(private readonly sealed = true) {}
  async put(p: { accountId: string; settings: AccountProviderSettings; at: Date }) {
    if (!this.sealed) throw errors.unavailable('no key');
    const kept: AccountProvider = {
      accountId: p.accountId,
      settings: structuredClone(p.settings),
      createdAt: this.items.get(p.accountId)?.createdAt ?? p.at,
      updatedAt: p.at,
    };
    this.items.set(p.accountId, kept);
    return structuredClone(kept);
  }
  async find(accountId: string) {
    const found = this.items.get(accountId);
    return found ? structuredClone(found) : null;
  }
  async delete(accountId: string) {
    return this.items.delete(accountId);
  }
}

/** Records which accounts were forgotten. */
export class RecordingCache implements ProviderCache {
  readonly forgotten: string[] = [];
  forget(accountId: string) {
    this.forgotten.push(accountId);
  }
}

/**
 * The file service as binding a directory asks it: whether the directory exists, and the names
 * marked bound (`bound`, as `<directory>/<name>` or `-<directory>/<name>` once unbound); the
 * workflow's calls throw.
 */
export function directoriesOnly(directoryExists: WorkflowFiles['directoryExists'], bound: string[] = []): WorkflowFiles {
  const unexpected = () => {
    throw new Error('not called when binding');
  };
  return {
    directoryExists,
    claimLatest: unexpected,
    records: unexpected,
    complete: unexpected,
    recordOutcome: unexpected,
    setBound: async (q) => void bound.push(`${q.bound ? '' : '-'}${q.directoryId}/${q.filename}`),
  };
}
