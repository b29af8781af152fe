import { describe, expect, it } from 'vitest';
import { APPS } from './fault-kit.js';
import { faultUnderLoad } from './fault-scenario.js';

// kill -9 of each app under load, restarted by infra/apps.sh up (docs/reliability.md "Fault tests").
describe('kill -9 of an app under load', () => {
  for (const app of APPS) {
    it(`${app}: nothing acknowledged lost, only 503s in the error shape meanwhile, recovered without a hand`, async () => {
      const { problems, lost } = await faultUnderLoad(app);
      expect.soft(problems, 'answers clients should not have seen').toEqual([]);
      expect.soft(lost, 'acknowledged and lost').toEqual([]);
    });
  }

  // Beside graceful-shutdown.process.test.ts (a private gateway, keep-alive health and account
  // reads): the stack's own gateway under the mixed load, uploads in flight included.
  it('gateway SIGTERM: no request in flight fails; only new connections are refused until it is back', async () => {
    const { problems, lost } = await faultUnderLoad('gateway', 'SIGTERM');
    expect.soft(problems, 'answers clients should not have seen').toEqual([]);
    expect.soft(lost, 'acknowledged and lost').toEqual([]);
  });
});
