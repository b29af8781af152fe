import { LRUCache } from 'lru-cache';
import { decodePageToken, encodePageToken, errors, pageSizeOf, type PageRule } from '@feedback/kit-core';
import type { ReportTotals } from '../../reports/domain/report-totals.js';
import type { TallyReader } from '../../reports/report-reads.ports.js';
import { phoneOf } from '../../shared/domain/phone-page.js';
import { sharingState, type SharingState, type SmsSharing } from '../../shared/domain/sharing.js';
import { messageId, type MessageStatus, type SmsMessage } from '../../shared/domain/sms-message.js';
import type { StatusDeps } from '../ports.js';
import { recipientStatusOf, waitingStatusOf, type RecipientStatus, type WaitingStatus } from './sharing-status.use-cases.js';

/** A campaign's reminders: 1-3. */
const REMINDERS = [1, 2, 3];

type Deps = Pick<StatusDeps, 'sharings' | 'messages' | 'clock' | 'settings'> & { tallies: Pick<TallyReader, 'sharingTotals'> };

/** ListSharingRecipients' pages: 1-500, 50 by default, as the other recipient lists. */
export const SHARING_RECIPIENTS_PAGE: PageRule = { list: 'sharing_recipients', default: 50, max: 500 };

/** What a recipient's status can be (RecipientStatus.status), as the filter takes it. */
export const RECIPIENT_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'retryable',
  'unknown',
  'delivered',
  'failed',
  'opted_out',
  'cancelled',
] as const;

/** The statuses a first message's record holds (a recipient's status is its first message's): read by index. */
const STORED: readonly (MessageStatus | string)[] = RECIPIENT_STATUSES.filter((s) => s !== 'scheduled' && s !== 'queued');

export interface SharingRecipientsRequest {
  accountId: string;
  sharingId: string;
  /** '' = any. */
  status: string;
  /** '' = every recipient; else any notation of one phone. */
  phone: string;
  pageSize?: number;
  pageToken?: string;
}

export interface SharingRecipientsPage {
  sharing: SmsSharing;
  state: SharingState;
  /** Its counters (sharing_tallies); null before the relay's first count. */
  totals: ReportTotals | null;
  recipients: RecipientStatus[];
  nextPageToken: string;
}

/** Where a page starts: the recipient document (0-based, stored order) and the place in it. */
interface Position {
  doc: number;
  at: number;
}

// The paging token's key: the document as its "date", the sharing and the place as its id, so a
// token of another sharing is refused like a forged one.
const tokenOf = (sharingId: string, p: Position) =>
  encodePageToken(SHARING_RECIPIENTS_PAGE.list, { at: new Date(p.doc), id: `${sharingId}/${p.at}` });

function positionOf(sharingId: string, token: string): Position {
  if (!token) return { doc: 0, at: 0 };
  const key = decodePageToken(SHARING_RECIPIENTS_PAGE.list, token);
  const [id, at = ''] = key.id.split('/');
  const doc = key.at.getTime();
  if (id !== sharingId || !/^\d{1,9}$/.test(at) || doc < 0 || doc > 1_000_000)
    throw errors.invalid({ page_token: 'is not a page token of this list' });
  return { doc, at: Number(at) };
}

// A page of one stored status: its own list in the token (a page of another list, or of the
// unfiltered one, is refused), the sharing and the status as its id, the page's last phone after them.
const STATUS_LIST = `${SHARING_RECIPIENTS_PAGE.list}_by_status`;
const statusTokenOf = (sharingId: string, status: string, phone: string) =>
  encodePageToken(STATUS_LIST, { at: new Date(0), id: `${sharingId}/${status}/${phone}` });

function phoneAfter(sharingId: string, status: string, token: string): string {
  if (!token) return '';
  const { id } = decodePageToken(STATUS_LIST, token);
  const prefix = `${sharingId}/${status}/`;
  const phone = id.startsWith(prefix) ? id.slice(prefix.length) : '';
  if (!/^\d{1,20}$/.test(phone)) throw errors.invalid({ page_token: 'is not a page token of this list' });
  return phone;
}

/**
 * A page of a sharing's recipients, each with where its SMS stands, and the sharing with its
 * counters: what GetSmsSharing answers for every recipient at once, a page at a time. A page
 * reads its recipient documents' phones and its recipients' message records (by phone), so its
 * cost does not grow with the sharing. A status a first message's record holds (all but the
 * waiting ones) is read from the records of that status, in phone order, so a rare one costs
 * what a common one does; a waiting status reads a document's recipients at a time until the
 * page is full; one phone is one lookup.
 */
export async function listSharingRecipients(deps: Deps, q: SharingRecipientsRequest): Promise<SharingRecipientsPage> {
  const status = q.status ? (RECIPIENT_STATUSES.find((s) => s === q.status) ?? null) : undefined;
  if (status === null) throw errors.invalid({ status: `must be one of ${RECIPIENT_STATUSES.join(', ')}` });
  const phone = q.phone ? phoneOf(q.phone, deps.settings.defaultRegion) : undefined;
  const size = pageSizeOf(q.pageSize, SHARING_RECIPIENTS_PAGE);
  const stored = phone === undefined && status !== undefined && STORED.includes(status) ? (status as MessageStatus) : undefined;
  const after = stored ? phoneAfter(q.sharingId, stored, q.pageToken ?? '') : '';
  const start = stored ? { doc: 0, at: 0 } : positionOf(q.sharingId, q.pageToken ?? '');
  const sharing = await deps.sharings.findById(q.accountId, q.sharingId);
  if (!sharing) throw errors.notFound('sharing_id', q.sharingId);
  const now = deps.clock.now();
  const reader = {
    deps,
    accountId: q.accountId,
    sharingId: sharing.id,
    accepted: sharing.accepted,
    waiting: waitingStatusOf(sharing, now),
  };
  const [totals, page] = await Promise.all([
    deps.tallies.sharingTotals(q.accountId, [sharing.id]).then((m) => m.get(sharing.id) ?? null),
    phone !== undefined
      ? onePhone(reader, phone, status)
      : stored
        ? storedStatusPage(reader, stored, size, after)
        : readPage(reader, status, size, start),
  ]);
  return { sharing, state: sharingState(sharing, now), totals, ...page };
}

interface Reader {
  deps: Deps;
  accountId: string;
  sharingId: string;
  /** Its recipients. */
  accepted: number;
  waiting: WaitingStatus;
}

type Found = Pick<SharingRecipientsPage, 'recipients' | 'nextPageToken'>;

async function statusesOf(r: Reader, phones: string[]): Promise<RecipientStatus[]> {
  const firsts = new Map<string, SmsMessage>();
  const reminders = new Map<string, SmsMessage[]>();
  // Record ids are (sharing, phone, reminder): a page's records are read by key, never by a scan of the sharing's.
  const ids = phones.flatMap((p) => [0, ...REMINDERS].map((n) => messageId(r.sharingId, p, n)));
  for (const m of await r.deps.messages.findMany(ids)) {
    if ((m.reminder ?? 0) === 0) firsts.set(m.phone, m);
    else reminders.set(m.phone, [...(reminders.get(m.phone) ?? []), m]);
  }
  return phones.map((p) => recipientStatusOf(p, firsts.get(p), reminders.get(p) ?? [], r.waiting));
}

async function onePhone(r: Reader, phone: string, status: string | undefined): Promise<Found> {
  // A phone with a record of this sharing is one of its recipients; only one without any is
  // looked for among the recipients (waiting for its turn, or none of them).
  const [found] = await statusesOf(r, [phone]);
  const waiting = found!.status === r.waiting && found!.updatedAt === null;
  if (waiting && !(await r.deps.sharings.hasRecipient(r.sharingId, phone))) return { recipients: [], nextPageToken: '' };
  return { recipients: !status || found!.status === status ? [found!] : [], nextPageToken: '' };
}

async function readPage(r: Reader, status: string | undefined, size: number, start: Position): Promise<Found> {
  const out: RecipientStatus[] = [];
  let pos = { ...start };
  let phones = await r.deps.sharings.recipientPhonesAt(r.sharingId, pos.doc);
  while (phones && out.length < size) {
    // Unfiltered, only the records the page still needs; filtered, the rest of the document.
    const slice = phones.slice(pos.at, status ? phones.length : pos.at + size - out.length);
    for (const row of await statusesOf(r, slice)) {
      pos.at++;
      if (status && row.status !== status) continue;
      out.push(row);
      if (out.length === size) break;
    }
    if (pos.at >= phones.length) {
      // The next document now, not on the next page: a page that ends with the last one says so.
      pos = { doc: pos.doc + 1, at: 0 };
      phones = await r.deps.sharings.recipientPhonesAt(r.sharingId, pos.doc);
    }
  }
  return { recipients: out, nextPageToken: phones ? tokenOf(r.sharingId, pos) : '' };
}

/** Recipients a recipient document holds at most (shared/adapters/mongo/sharing.repository.ts). */
const PER_DOCUMENT = 1_000;

/**
 * Where a sharing's first status page starts looking: the lowest phone of its first and its last
 * recipient document, the lowest of the sharing when its list was sorted either way (a hint; the
 * records decide, but every record of the status below it is read for the first page). Kept, as
 * a sharing's recipients do not change once it can be read: those reads were a third of a page's time.
 */
const nearPhones = new LRUCache<string, string>({ max: 10_000, ttl: 3_600_000 });

async function nearPhoneOf(r: Reader): Promise<string | undefined> {
  const kept = nearPhones.get(r.sharingId);
  if (kept !== undefined) return kept || undefined;
  const last = Math.max(0, Math.ceil(r.accepted / PER_DOCUMENT) - 1);
  const docs = await Promise.all([...new Set([0, last])].map((n) => r.deps.sharings.recipientPhonesAt(r.sharingId, n)));
  const near = docs.flatMap((phones) => phones ?? []).reduce((a, b) => (!a || b < a ? b : a), '');
  nearPhones.set(r.sharingId, near);
  return near || undefined;
}

async function storedStatusPage(r: Reader, status: MessageStatus, size: number, after: string): Promise<Found> {
  // One more than the page says whether another follows.
  const near = after ? undefined : await nearPhoneOf(r);
  const phones = await r.deps.messages.firstsWithStatus({ sharingId: r.sharingId, status, after, limit: size + 1, ...(near && { near }) });
  const page = phones.slice(0, size);
  // The records decide: one whose status changed since it was found is left out.
  const recipients = (await statusesOf(r, page)).filter((row) => row.status === status);
  return { recipients, nextPageToken: phones.length > size ? statusTokenOf(r.sharingId, status, page.at(-1)!) : '' };
}
