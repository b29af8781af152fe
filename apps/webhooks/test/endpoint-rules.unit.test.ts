import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { createEndpoint, getEndpoint, sendTestEvent, TOO_MANY_ENDPOINTS_CODE, updateEndpoint } from '../src/domain/endpoint.use-cases.js';
import { memoryDeps } from './fakes/memory-deps.js';

const ok = () => ({ statusCode: 200, error: '', latencyMs: 1, responseBody: '' });
const input = { url: 'https://a.example/h', events: ['survey.answered'], description: '' };

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

// What an account may do to its endpoints: the operator's off switch outranks the account's, and
// the deployment bounds endpoints and test events per account.
describe('endpoint rules', () => {
  it("the operator's disable says so, and only the operator enables the endpoint again", async () => {
    const { deps } = memoryDeps({ value: new Date() }, ok);
    const { endpoint } = await createEndpoint(deps, 'acc', input);
    expect(await updateEndpoint(deps, 'acc', endpoint.id, { enabled: false }, 'operator')).toMatchObject({
      enabled: false,
      disabledReason: 'operator',
    });

    const refused = await failure(updateEndpoint(deps, 'acc', endpoint.id, { enabled: true }));
    expect(refused).toMatchObject({ kind: 'permission_denied', code: 13013, fields: { enabled: expect.stringMatching(/operator/) } });
    // Turning it off as well, or editing it, leaves it the operator's.
    await updateEndpoint(deps, 'acc', endpoint.id, { enabled: false, description: 'paused' });
    expect(await getEndpoint(deps, 'acc', endpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: 'operator',
      description: 'paused',
    });
    // A late 410 from an attempt under way does not replace the operator's reason.
    await deps.endpoints.disable(endpoint.id, 'the receiver answered 410 Gone', new Date());
    expect((await getEndpoint(deps, 'acc', endpoint.id)).disabledReason).toBe('operator');

    expect(await updateEndpoint(deps, 'acc', endpoint.id, { enabled: true }, 'operator')).toMatchObject({
      enabled: true,
      disabledReason: '',
    });
  });

  it('an account still turns on an endpoint the service disabled', async () => {
    const { deps } = memoryDeps({ value: new Date() }, ok);
    const { endpoint } = await createEndpoint(deps, 'acc', input);
    await deps.endpoints.disable(endpoint.id, 'the receiver answered 410 Gone', new Date());
    expect(await updateEndpoint(deps, 'acc', endpoint.id, { enabled: true })).toMatchObject({ enabled: true, disabledReason: '' });
  });

  it('refuses an endpoint past the per-account maximum with 409 / 13050, other accounts unaffected', async () => {
    const { deps } = memoryDeps({ value: new Date() }, ok);
    deps.settings = { ...deps.settings, maxEndpointsPerAccount: 2 };
    await createEndpoint(deps, 'acc', input);
    await createEndpoint(deps, 'acc', input);
    const refused = await failure(createEndpoint(deps, 'acc', input));
    expect(refused).toMatchObject({
      kind: 'conflict',
      code: TOO_MANY_ENDPOINTS_CODE,
      fields: { endpoints: expect.stringMatching(/at most 2/) },
    });
    expect(await deps.endpoints.count('acc')).toBe(2);
    await createEndpoint(deps, 'other', input);
  });

  it('creates racing past the check keep the account at the maximum', async () => {
    const { deps } = memoryDeps({ value: new Date() }, ok);
    deps.settings = { ...deps.settings, maxEndpointsPerAccount: 3 };
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createEndpoint(deps, 'acc', input)));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(3);
    expect(await deps.endpoints.count('acc')).toBeLessThanOrEqual(3);
  });

  it('limits test events per account per minute: 429 with the seconds to wait, a new minute opens again', async () => {
    const now = { value: new Date('2026-11-27T10:00:15.000Z') };
    const { deps } = memoryDeps(now, ok);
    deps.settings = { ...deps.settings, testSendsPerMinute: 2 };
    const { endpoint } = await createEndpoint(deps, 'acc', input);
    const other = await createEndpoint(deps, 'other', input);
    await sendTestEvent(deps, 'acc', endpoint.id);
    await sendTestEvent(deps, 'acc', endpoint.id);
    const refused = await failure(sendTestEvent(deps, 'acc', endpoint.id));
    expect(refused).toMatchObject({
      kind: 'rate_limited',
      code: 13005,
      fields: { retry_after: '45', test: expect.stringMatching(/at most 2/) },
    });
    await sendTestEvent(deps, 'other', other.endpoint.id);
    now.value = new Date('2026-11-27T10:01:00.000Z');
    await sendTestEvent(deps, 'acc', endpoint.id);
  });
});
