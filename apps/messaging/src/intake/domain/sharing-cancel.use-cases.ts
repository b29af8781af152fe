import { errors } from '@feedback/kit-core';
import type { IntakeDeps } from '../ports.js';
import { noteSettledFirsts } from '../../status/domain/sharing-completion.use-cases.js';
import { messageId } from '../../shared/domain/sms-message.js';

type Deps = Pick<IntakeDeps, 'sharings' | 'jobs' | 'messages' | 'statusEvents' | 'clock'>;

export interface CancelOutcome {
  /** Recipients that will not be texted (status cancelled). */
  cancelled: number;
  /** Recipients whose message was handed to the provider, or was being handed over, before the cancel. */
  alreadySent: number;
}

/**
 * DELETE /v1/sms_sharings/{id}: the sharing is marked cancelled, its waiting steps (a scheduled
 * release, reminders) are cancelled, and every recipient whose message was not claimed yet gets
 * a "cancelled" record, which a dispatcher's claim then finds taken: what had not reached the
 * provider never does. A message claimed before it is sent or being sent. A repeat answers the
 * same counts; another account's sharing is NOT_FOUND like an unknown one.
 */
export async function cancelSharing(deps: Deps, accountId: string, sharingId: string): Promise<CancelOutcome> {
  const sharing = await deps.sharings.cancel(accountId, sharingId, deps.clock.now());
  if (!sharing) throw errors.notFound('sharing_id', sharingId);
  await deps.jobs.cancelBySharing(sharing.id);
  await deps.sharings.dropSensitiveAttributes(sharing.id);
  const phones = await deps.sharings.listRecipientPhones(sharing.id);
  const ids = phones.map((phone) => messageId(sharing.id, phone));
  // The sharing's records in one indexed read (none for a scheduled sharing), not a read by id per
  // recipient: 10,000 recipients were 100 reads before the writes and 100 after, past the deadline.
  const firsts = new Set(ids);
  const before = new Map((await deps.messages.listBySharing(sharing.id)).filter((m) => firsts.has(m.id)).map((m) => [m.id, m]));
  const written = await deps.messages.cancelUnclaimed({
    accountId: sharing.accountId,
    sharingId: sharing.id,
    campaignId: sharing.campaignId,
    phones: phones.filter((_, k) => !before.has(ids[k]!)),
    at: sharing.cancelledAt ?? deps.clock.now(),
  });
  // A record this call wrote stays cancelled (a later claim finds it taken); only the others (those
  // that existed, or that a dispatcher claimed first) are read again to see where they stand.
  const mine = new Set(written.map((m) => m.id));
  const after = [...written, ...(await deps.messages.findMany(ids.filter((id) => !mine.has(id))))];
  const changed = after.filter((m) => m.status === 'cancelled' && before.get(m.id)?.status !== 'cancelled');
  await deps.statusEvents.changedMany(changed);
  await noteSettledFirsts(
    deps,
    changed.map((m) => m.sharingId),
  );
  const cancelled = after.filter((m) => m.status === 'cancelled').length;
  const notSent = after.filter((m) => m.status === 'cancelled' || m.status === 'opted_out').length;
  return { cancelled, alreadySent: phones.length - notSent };
}
