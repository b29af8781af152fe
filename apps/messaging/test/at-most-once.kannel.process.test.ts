import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFakeSmscMessages } from './fakesmsc-log.js';
import { ensureKannel, logger, sleep, stack, uniq, waitFor, type KannelSettings } from './stack.js';
import { freePort, processEnv, shareTo, startMessagingProcess, type MessagingProcess } from './messaging-process.js';

// More than the small-sharing lane takes (100), so the sharing goes out in slices on the main
// lane and the kill below lands while most of it is still to be handed over; a sharing of the
// lane goes to Kannel in one go, sometimes before the kill.
const PHONES = 300;

/** infra/apps.sh's kannel_provider_json, run as `SMS_PROVIDER=http ./stack up` runs it. */
function appsShKannelProvider(k: KannelSettings): string {
  const appsSh = fileURLToPath(new URL('../../../infra/apps.sh', import.meta.url));
  const script = `source "$(dirname "$1")/lib.sh"; eval "$(sed -n '/^kannel_provider_json()/,/^}/p' "$1")"; kannel_provider_json "$2" "$3"`;
  return execFileSync('bash', ['-c', script, 'bash', appsSh, k.KANNEL_SENDSMS_USER, k.KANNEL_SENDSMS_PASSWORD], { encoding: 'utf8' });
}

/*
 * At most once at a real SMS gateway across a crash: a private messaging process with the http
 * provider in front of Kannel (infra/kannel.sh) is killed with SIGKILL while it dispatches a
 * sharing, then started again. Kannel is not idempotent, so a claim left "sending" by the dead
 * process is never sent again: no phone may reach fakesmsc twice, and every phone whose message
 * is recorded as sent must have reached it exactly once.
 */
describe('a sharing through Kannel survives kill -9: no phone gets two SMS', () => {
  let kannel: ReturnType<typeof ensureKannel>;
  let k: KannelSettings;
  let mongo: MongoHandle;
  let proc: MessagingProcess | undefined;
  const dbName = uniq('messaging_amo_test');
  // A block of numbers no other run uses, so the shared fakesmsc log can be filtered by it.
  const block = String(randomInt(100, 999));
  const phones = Array.from({ length: PHONES }, (_, i) => `0533${block}${String(i).padStart(4, '0')}`);
  const ours = new Set(phones.map((p) => `90${p.slice(1)}`));
  let env: Record<string, string>;

  beforeAll(async () => {
    kannel = ensureKannel();
    k = kannel.settings;
    mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
    const dlrPort = await freePort();
    env = {
      ...processEnv(dbName),
      SMS_PROVIDER: 'http',
      // Exactly what `SMS_PROVIDER=http ./stack up` gives the stack's messaging service.
      SMS_HTTP_PROVIDER: appsShKannelProvider(k),
      // The same listener after the restart: reports of messages the first process sent still land.
      DLR_PORT: String(dlrPort),
      DLR_PUBLIC_URL: `http://127.0.0.1:${dlrPort}`,
    };
  });
  afterAll(async () => {
    await proc?.kill('SIGKILL');
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
    kannel?.stop();
  });

  const atSmsc = () => readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).filter((m) => ours.has(m.to));
  const records = () => mongo.db.collection<{ _id: string; phone: string; status: string }>('sms_messages');

  it(
    'kill -9 mid-dispatch, restart: each phone at fakesmsc at most once, and exactly once when recorded sent',
    { timeout: 180_000 },
    async () => {
      const account = uniq('acc');
      proc = await startMessagingProcess({ ...env, GRPC_PORT: String(await freePort()) }, 90_000);
      // All PHONES accepted, none rejected or duplicate (else it throws). One UCS-2 SMS (at most 70
      // characters with the link), so one log line per message.
      await shareTo(proc, account, phones, { name: 'At most once', messageTemplate: 'Görüşünüz: {{link}}' });

      await waitFor('some SMS at fakesmsc', () => atSmsc().length >= 10, 90_000).catch((err: Error) => {
        throw new Error(`${err.message}\n${proc!.output()}`);
      });
      await proc.kill('SIGKILL');
      const atKill = atSmsc().length;
      expect(atKill, 'the kill came after the last message: nothing was left to test').toBeLessThan(PHONES);

      proc = await startMessagingProcess({ ...env, GRPC_PORT: String(await freePort()) }, 90_000);
      // Done when every recipient has a record and nothing moves any more (a claim the dead process
      // left "sending" stays so for good).
      let last = '';
      let same = 0;
      await waitFor(
        `all ${PHONES} recipients handled (${atKill} at the kill)`,
        async () => {
          const n = await records().countDocuments();
          const sending = await records().countDocuments({ status: 'sending' });
          const now = `${n}/${sending}/${atSmsc().length}`;
          same = now === last ? same + 1 : 0;
          last = now;
          if (n === PHONES && same >= 3) return true;
          await sleep(1_000);
          return false;
        },
        150_000,
      );

      const received = atSmsc();
      const perPhone = new Map<string, number>();
      for (const m of received) perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
      expect([...perPhone].filter(([, n]) => n > 1)).toEqual([]);
      expect(received.every((m) => /^Görüşünüz: http:\/\/\S+$/.test(m.text))).toBe(true);

      const all = await records().find().toArray();
      const sent = all.filter((r) => r.status === 'sent' || r.status === 'delivered');
      for (const r of sent) expect(perPhone.get(r.phone), r.phone).toBe(1);
      // Only what was in flight at the kill may be lost ("sending" for good, or "unknown" after a
      // timeout), never sent twice; nothing is left to retry.
      expect(all.filter((r) => !['sent', 'delivered', 'sending', 'unknown'].includes(r.status))).toEqual([]);
      expect(sent.length).toBeGreaterThan(0);
      expect(received.length).toBeGreaterThanOrEqual(sent.length);
      expect(received.length).toBeLessThanOrEqual(PHONES);
      // Kannel's delivery reports come back through the signed callback, across the restart.
      await waitFor('delivery reports', async () => (await records().countDocuments({ status: 'delivered' })) >= sent.length - 5, 60_000);
      logger.info({ atKill, sent: sent.length, received: received.length }, 'kill -9 through Kannel');
    },
  );
});
