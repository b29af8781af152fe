import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStackFile } from '@feedback/dev-stack';
import { APPS, runScript, signal, sleep, stackUnderTest, type App, type Target } from './fault-kit.js';
import { Load, newTenant } from './fault-load.js';
import { lostData } from './fault-verify.js';

/*
 * What operators do every week, with two processes of every app (`REPLICAS=2 infra/apps.sh up`)
 * under the fault tests' mix of routes (short links, redirects, flow details, active surveys,
 * uploads, SMS sharings spread over both gateways): each app's processes restarted one at a time,
 * each ready before the next goes. With SIGTERM (`infra/apps.sh restart APP`) no request may fail;
 * with kill -9 (then `infra/apps.sh up`) failures are allowed, counted, and each one a 503 in the
 * error shape (a client retries it) or, for the gateway itself, a dropped connection. Either way
 * nothing acknowledged may be lost and each SMS of an acknowledged sharing reaches the provider once.
 */

const REPLICAS = 2;
const TIMEOUT_MS = 900_000;

interface Window {
  app: App;
  from: number;
  to: number;
}

/** Requests sent while each app was being restarted, and those that did not succeed. */
function perApp(load: Load, windows: Window[]) {
  return Object.fromEntries(
    windows.map((w) => {
      const during = load.answers.filter((a) => a.at >= w.from && a.at <= w.to);
      const failed = during.filter((a) => typeof a.status !== 'number' || a.status >= 500);
      const byStatus: Record<string, number> = {};
      for (const a of failed) byStatus[String(a.status)] = (byStatus[String(a.status)] ?? 0) + 1;
      return [w.app, { sent: during.length, failed: failed.length, ...(failed.length ? { byStatus } : {}) }];
    }),
  );
}

async function useReplicas(n: number) {
  await runScript('infra/apps.sh', ['up'], 600_000, { REPLICAS: String(n) });
  await runScript('infra/infra.sh', ['write_stack_json']);
}

async function underLoad(label: string, restartApp: (app: App) => Promise<void>) {
  const stack = stackUnderTest();
  if (stack.replicas !== REPLICAS || stack.gateways?.length !== REPLICAS)
    throw new Error(`the stack runs ${stack.replicas ?? 1} replica(s)`);
  const tenant = await newTenant(stack, label);
  const load = new Load(stack, tenant, { clients: 4, smsEveryMs: 2_000, gateways: stack.gateways });
  load.start();
  await sleep(3_000);
  const windows: Window[] = [];
  const started = Date.now();
  try {
    for (const app of APPS) {
      const from = Date.now();
      await restartApp(app);
      windows.push({ app, from, to: Date.now() });
      await sleep(1_000);
    }
  } finally {
    await sleep(2_000);
    await load.stop();
  }
  const restartsSec = (Date.now() - started) / 1000;
  return { stack, tenant, load, windows, restartsSec };
}

const processesOf = (app: App): Target[] => Array.from({ length: REPLICAS }, (_, i) => (i === 0 ? app : (`${app}-${i + 1}` as Target)));

describe('two replicas of every app, restarted one process at a time under load', () => {
  let before = 1;
  beforeAll(async () => {
    before = readStackFile().replicas ?? 1;
    await useReplicas(REPLICAS);
  }, TIMEOUT_MS);
  afterAll(async () => {
    await useReplicas(before);
  }, TIMEOUT_MS);

  it(
    'SIGTERM, one process after the other: no request fails, nothing acknowledged is lost, each SMS once',
    async () => {
      const { stack, tenant, load, windows, restartsSec } = await underLoad('rolling-term', async (app) => {
        await runScript('infra/apps.sh', ['restart', app], 300_000);
      });
      const counts = perApp(load, windows);
      const { lost, notes } = await lostData(stack, tenant, load);
      console.log(
        `rolling restart SIGTERM: ${JSON.stringify({ restartsSec, perApp: counts, rerouted: load.rerouted, answers: load.tally(), ...notes })}`,
      );
      // No outage window: any 503 or failed connection is a problem.
      expect.soft(load.problems({ from: 0, to: 0, connectionErrors: 'none' }), 'failed requests').toEqual([]);
      expect.soft(lost, 'acknowledged and lost').toEqual([]);
      for (const app of APPS) expect.soft(counts[app]!.sent, `${app}: requests sent during its restart`).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );

  it(
    'kill -9, one process after the other: failures counted and each a retriable 503 (a dropped connection only from the gateway), nothing acknowledged lost, each SMS once',
    async () => {
      const { stack, tenant, load, windows, restartsSec } = await underLoad('rolling-kill', async (app) => {
        for (const p of processesOf(app)) {
          await signal(p, 'SIGKILL');
          await runScript('infra/apps.sh', ['up'], 300_000);
        }
      });
      const counts = perApp(load, windows);
      const { lost, notes } = await lostData(stack, tenant, load, { clicksMayBeLost: true });
      console.log(
        `rolling restart kill -9: ${JSON.stringify({ restartsSec, perApp: counts, rerouted: load.rerouted, answers: load.tally(), ...notes })}`,
      );
      const first = windows[0]!.from;
      const last = windows.at(-1)!.to;
      // Spec-shaped answers only, 503 only while processes were being killed, no hang.
      expect.soft(load.problems({ from: first, to: last, connectionErrors: 'any' }), 'answers clients should not have seen').toEqual([]);
      // A dropped connection only while a gateway was killed.
      const gateway = windows.find((w) => w.app === 'gateway')!;
      const dropped = load.answers.filter((a) => a.status === 'network' && !(a.end >= gateway.from && a.at <= gateway.to));
      expect
        .soft(
          dropped.map((a) => `${a.op} ${a.code}`),
          'connections failed while no gateway was down',
        )
        .toEqual([]);
      expect.soft(lost, 'acknowledged and lost').toEqual([]);
    },
    TIMEOUT_MS,
  );
});
