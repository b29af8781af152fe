import { lostData } from './fault-verify.js';
import { restart, signal, sleep, stackUnderTest, type Target } from './fault-kit.js';
import { Load, newTenant } from './fault-load.js';

/** How long every route may take to answer 2xx again once the restart script has returned. */
export const RECOVERY_LIMIT_MS = 60_000;

/**
 * One fault under load: a fresh account, four clients and an SMS sharing every 2 s; after 4 s
 * `sig` to `target`, 2 s of outage, the project's script starts it again, the routes are probed
 * until each answers 2xx, 2 s more of load. Returns what clients should not have seen, what was
 * lost, and the figures for the log.
 */
export async function faultUnderLoad(target: Target, sig: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') {
  const stack = stackUnderTest();
  const tenant = await newTenant(stack, target);
  const load = new Load(stack, tenant, { clients: 4, smsEveryMs: 2_000 });
  load.start();
  await sleep(4_000);
  const killAt = Date.now();
  await signal(target, sig);
  await sleep(2_000);
  const restartAt = Date.now();
  await restart(target);
  const restartedAt = Date.now();
  const recoveredAt = await load.recovered(RECOVERY_LIMIT_MS).catch(async (err: Error) => {
    await load.stop();
    throw err;
  });
  await sleep(2_000);
  await load.stop();
  const connectionErrors = target !== 'gateway' ? 'none' : sig === 'SIGKILL' ? 'any' : 'refused';
  const problems = load.problems({ from: killAt, to: recoveredAt, connectionErrors });
  const { lost, notes } = await lostData(stack, tenant, load, { clicksMayBeLost: target === 'gateway' && sig === 'SIGKILL' });
  const summary = {
    target,
    signal: sig,
    restartSec: (restartedAt - restartAt) / 1000,
    recoverySec: (recoveredAt - restartedAt) / 1000,
    outageSec: (recoveredAt - killAt) / 1000,
    answers: load.tally(),
    ...notes,
  };
  console.log(`fault ${target} ${sig}: ${JSON.stringify(summary)}`);
  return { problems, lost, summary };
}
