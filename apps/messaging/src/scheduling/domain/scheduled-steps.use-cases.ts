import type { SharingJob, SchedulingDeps } from '../ports.js';
import { nextSendTime } from '../../shared/domain/send-window.js';

type Deps = Pick<SchedulingDeps, 'jobs' | 'campaigns' | 'sharings' | 'dispatch' | 'pacer' | 'clock' | 'settings'>;

/** How long a taken step, and the scheduler's lead, stay a process's without being renewed. */
export const STEP_LEASE_MS = 30_000;
/** Steps run per tick at most, so the lead is renewed between them. */
const STEPS_PER_TICK = 20;
/** Events published at a time: the pacer is asked for each slice. */
const RELEASE_SLICE = 200;

const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);

/**
 * One tick of the scheduler: the process that holds the lead (one at a time, across replicas)
 * takes the due steps one after the other and runs each (runStep). Answers the steps run.
 */
export async function runDueSteps(deps: Deps, owner: string): Promise<number> {
  let ran = 0;
  while (ran < STEPS_PER_TICK) {
    const now = deps.clock.now();
    if (!(await deps.jobs.lead(owner, now, plus(now, STEP_LEASE_MS)))) return ran;
    const step = await deps.jobs.claimDue(now, owner, plus(now, STEP_LEASE_MS));
    if (!step) return ran;
    await runStep(deps, step, owner);
    ran++;
  }
  return ran;
}

/**
 * A step whose time came: outside the campaign's send window (its own, else the deployment's) it
 * waits for the next opening; otherwise every recipient's sms.dispatch event is published (the
 * step's reminder number on each), paced to the provider's rate, the step's lease renewed
 * between slices. A step that was cancelled (or taken over after a stall) stops at its next
 * slice. A crash leaves it taken until its lease runs out; then it runs again from the start,
 * and the messages' claims keep anyone from being texted twice. Events of a cancelled sharing,
 * of a vanished campaign or of a reminder the campaign no longer has are not published.
 */
export async function runStep(deps: Deps, step: SharingJob, owner: string): Promise<'released' | 'postponed' | 'dropped' | 'stopped'> {
  const [campaign, sharing] = await Promise.all([
    deps.campaigns.findById(step.accountId, step.campaignId),
    deps.sharings.findById(step.accountId, step.sharingId),
  ]);
  if (!campaign || !sharing || sharing.cancelledAt || step.reminder > campaign.reminders.length) {
    await deps.jobs.finish(step.id, owner);
    if (step.reminder === 0) await deps.sharings.dropSensitiveAttributes(step.sharingId);
    return 'dropped';
  }
  const now = deps.clock.now();
  const opening = nextSendTime(campaign.sendWindow ?? deps.settings.defaultSendWindow, now);
  if (opening.getTime() > now.getTime()) {
    await deps.jobs.postpone(step.id, owner, opening);
    return 'postponed';
  }
  for await (const page of deps.sharings.recipientPages(step.sharingId)) {
    for (let from = 0; from < page.length; from += RELEASE_SLICE) {
      const slice = page.slice(from, from + RELEASE_SLICE);
      await deps.pacer.take(slice.length);
      const now = deps.clock.now();
      if (!(await deps.jobs.renew(step.id, owner, plus(now, STEP_LEASE_MS)))) return 'stopped';
      // A long release keeps the lead too, so no other process starts releasing beside it.
      await deps.jobs.lead(owner, now, plus(now, STEP_LEASE_MS));
      const batch = deps.dispatch.batch();
      batch.add(
        slice.map((recipient) => ({
          sharingId: step.sharingId,
          accountId: step.accountId,
          campaignId: step.campaignId,
          recipient,
          reminder: step.reminder,
        })),
      );
      await batch.send();
    }
  }
  await deps.jobs.finish(step.id, owner);
  // The first messages carry the sensitive attributes in their events; no later step needs them.
  if (step.reminder === 0) await deps.sharings.dropSensitiveAttributes(step.sharingId);
  return 'released';
}
