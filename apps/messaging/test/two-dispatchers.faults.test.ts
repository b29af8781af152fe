import type { MongoHandle } from '@feedback/kit-stores';
import { describe, expect, it } from 'vitest';
import {
  bothInGroup,
  claimedOn,
  expectAtMostOnceAtKannel,
  expectEachPhoneOnceRecorded,
  DISPATCH_PARTITIONS,
  handled,
  claimsInFlight,
  dispatcherSuite,
  dispatchSnapshot,
  kannelProvider,
  phoneBlock,
  privateDispatch,
  SESSION_TIMEOUT_MS,
  settled,
  takeover,
  underWayOnBoth,
} from './dispatchers.js';
import { sleep, uniq, waitFor } from './stack.js';
import { freePort, shareTo, startMessagingProcess } from './messaging-process.js';

/*
 * Two dispatchers share one sms.dispatch topic (6 partitions) and consumer group; one of them is
 * killed with SIGKILL while both dispatch a sharing. The group gives the dead one's partitions to
 * the survivor once its session (SMS_DISPATCH_SESSION_TIMEOUT_MS, 10 s here) runs out, and the
 * survivor finishes the sharing. With the recording provider (SMS_PROVIDER=outbox) every phone
 * is recorded exactly once; with the http provider in front of Kannel no phone reaches fakesmsc
 * twice, and what the dead one had claimed but not sent stays "sending".
 */
describe('two dispatchers, one killed with SIGKILL mid-dispatch', () => {
  const suite = dispatcherSuite('messaging-two-dispatchers-test');
  const { procs, cleanups } = suite;

  /** Two dispatchers, a sharing of `phones`, one killed; answers what the summary line needs. */
  async function killOneMidDispatch(
    phones: string[],
    providerEnv: (dlrUrl: string) => Record<string, string>,
    /** Also waited for before the kill (10 s at most), polled every 50 ms. */
    killWhen?: (mongo: MongoHandle, sharingId: string, victimPartitions: Set<number>) => Promise<boolean>,
  ) {
    const admin = suite.admin;
    const d = await privateDispatch(admin, cleanups, 'messaging_2d_test');
    const { mongo, env } = d;
    // Delivery reports go to the survivor's listener (the same DLR_SECRET signs them all).
    const dlrPorts = [await freePort(), await freePort()];
    const start = async (i: number) => {
      const proc = await startMessagingProcess(
        {
          ...env,
          ...providerEnv(`http://127.0.0.1:${dlrPorts[0]}`),
          GRPC_PORT: String(await freePort()),
          DLR_PORT: String(dlrPorts[i]),
          METRICS_PORT: String(await freePort()),
        },
        60_000,
      );
      procs.push(proc);
      return proc;
    };
    const [survivor, victim] = await Promise.all([start(0), start(1)]);
    await bothInGroup(admin, d.group, d.topic);

    const t0 = Date.now();
    const sharingId = await shareTo(survivor, uniq('acc'), phones);
    const accepted = Date.now() - t0;
    const victimPartitions = await underWayOnBoth(admin, d, sharingId, phones.length, [survivor, victim]);

    if (killWhen) await waitFor('the moment to kill', () => killWhen(mongo, sharingId, victimPartitions), 10_000).catch(() => undefined);
    const tKill = Date.now();
    await victim.kill('SIGKILL');
    const atKill = await handled(mongo, sharingId);
    // Claims of the dead one's partitions: its hand-overs in flight.
    const claimedAtKill = await claimedOn(mongo, sharingId, victimPartitions);
    expect(atKill, 'the kill came after the last message: nothing was left to test').toBeLessThan(phones.length * 0.8);

    const { groupMs, firstBatchMs } = await takeover(admin, d, survivor, victimPartitions, tKill);

    await settled(mongo, sharingId, phones.length, 150_000).catch(async (err: Error) => {
      const snapshot = await dispatchSnapshot(mongo, sharingId, d.topic, [survivor]);
      // The output first and the figures last: a truncated log keeps a failure message's end.
      throw new Error(`${err.message}\n${survivor.output()}\n${err.message}\n${snapshot}`);
    });
    const total = Date.now() - t0 - 3_000; // settled() waits 3 s of quiet
    const took =
      `accepted in ${(accepted / 1000).toFixed(1)} s; killed at ${atKill} handled, holding partitions ${[...victimPartitions].sort()}; ` +
      `group reassigned ${(groupMs / 1000).toFixed(1)} s after the kill, survivor's first batch of them ${(firstBatchMs / 1000).toFixed(1)} s; ` +
      `all ${phones.length} handled ${(total / 1000).toFixed(1)} s after the request`;
    return { mongo, sharingId, took, claimedAtKill };
  }

  it("outbox: the survivor takes the dead one's partitions over, all 5,000 recorded, each phone once", { timeout: 240_000 }, async () => {
    const phones = phoneBlock('532', 5_000);
    const { mongo, sharingId, took } = await killOneMidDispatch(phones, () => ({ SMS_PROVIDER: 'outbox' }));
    await sleep(1_000); // a second copy would come right after the first
    const resumed = await expectEachPhoneOnceRecorded(mongo, sharingId, phones);
    console.log(
      `two dispatchers (outbox): ${phones.length} phones, ${DISPATCH_PARTITIONS} partitions, session ${SESSION_TIMEOUT_MS / 1000} s; ${took}; ` +
        `each phone recorded once; ${resumed} claims resumed`,
    );
  });

  it(
    "http provider in front of Kannel: no phone at fakesmsc twice, the dead one's claims never handed over again",
    { timeout: 240_000 },
    async () => {
      const { k, env } = kannelProvider(cleanups);
      const phones = phoneBlock('535', 1_500);
      // Killed mid-hand-over: the dead one's claims are what is at stake.
      const { mongo, sharingId, took, claimedAtKill } = await killOneMidDispatch(phones, env, claimsInFlight);
      const r = await expectAtMostOnceAtKannel(mongo, sharingId, phones, k.KANNEL_FAKESMSC_LOG);
      // The dead one's claims: still "sending" (its request never reached Kannel, or its answer was
      // lost), or delivered (Kannel had it: its delivery report reached the survivor's listener).
      const ofClaimed = (what: (p: string) => boolean) => claimedAtKill.filter(what).length;
      const stillSending = ofClaimed((p) => r.statuses.get(p) === 'sending');
      const unsent = ofClaimed((p) => r.statuses.get(p) === 'sending' && !r.perPhone.has(p));
      const reported = ofClaimed((p) => r.statuses.get(p) === 'delivered' || r.statuses.get(p) === 'sent');
      console.log(
        `two dispatchers (kannel): ${phones.length} phones, ${DISPATCH_PARTITIONS} partitions, session ${SESSION_TIMEOUT_MS / 1000} s; ${took}; ` +
          `${r.received} at fakesmsc, none twice, no claim taken twice; the dead one had ${claimedAtKill.length} claimed at the kill: ` +
          `${stillSending} left "sending" (${unsent} of them never reached fakesmsc: claimed-but-unsent), ${reported} reached Kannel before ` +
          `the kill and were marked delivered by their report; overall ${r.sent} sent or delivered, ${r.sending} sending, ${r.unknown} unknown`,
      );
    },
  );
});
