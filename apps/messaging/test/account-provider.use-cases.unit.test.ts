import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { accountProviderFormat } from '../src/providers/adapters/http/account-provider.config.js';
import { deleteAccountProvider, getAccountProvider, putAccountProvider } from '../src/providers/domain/account-provider.use-cases.js';
import { MemoryAccountProviders, RecordingCache } from './fakes/memory-deps.js';

const clock = { now: () => new Date('2026-11-25T08:00:00Z') };

function setup(sealed = true) {
  const accountProviders = new MemoryAccountProviders(sealed);
  const providerCache = new RecordingCache();
  return { deps: { accountProviders, providerSettings: accountProviderFormat, providerCache, clock }, accountProviders, providerCache };
}

const kannelLike = {
  url: 'http://sms.example.com/cgi-bin/sendsms',
  method: 'GET',
  sender: 'ACME',
  query: { username: 'acme', password: 'pa55-word', from: '{sender}', to: '{to}', text: '{text}', 'dlr-url': '{dlr_url}' },
  dlr: { url_query: 'status=%d', status_param: 'status', delivered: ['1'], failed: ['2', '16'] },
};

async function invalidFields(p: Promise<unknown>): Promise<Record<string, string>> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).kind).toBe('invalid');
  return (err as AppError).fields;
}

describe("an account's own SMS provider", () => {
  it('is stored whole and answered masked; this process forgets the account it had cached', async () => {
    const { deps, accountProviders, providerCache } = setup();
    const shown = await putAccountProvider(deps, { accountId: 'acc-1', configJson: JSON.stringify(kannelLike) });

    expect(shown.settings.query).toEqual({
      username: '****',
      password: '****',
      from: '{sender}',
      to: '{to}',
      text: '{text}',
      'dlr-url': '{dlr_url}',
    });
    expect(shown.settings.sender).toBe('ACME');
    expect(shown.settings.url).toBe('http://sms.example.com/cgi-bin/sendsms');
    expect(JSON.stringify(shown)).not.toContain('pa55-word');
    expect(shown.createdAt).toEqual(clock.now());
    // The repository holds the real settings (the dispatcher needs them), defaults filled in.
    expect(accountProviders.items.get('acc-1')?.settings).toMatchObject({ ...kannelLike, timeout_ms: 10_000, body_encoding: 'json' });
    expect(providerCache.forgotten).toEqual(['acc-1']);

    const read = await getAccountProvider(deps, { accountId: 'acc-1' });
    expect(read.settings).toEqual(shown.settings);
  });

  it('another PUT replaces it and keeps its creation time', async () => {
    const { deps, accountProviders } = setup();
    await putAccountProvider(deps, { accountId: 'acc-1', configJson: JSON.stringify(kannelLike) });
    const later = { now: () => new Date('2026-11-25T09:00:00Z') };
    const second = await putAccountProvider(
      { ...deps, clock: later },
      { accountId: 'acc-1', configJson: JSON.stringify({ ...kannelLike, sender: 'OTHER' }) },
    );
    expect(second.settings.sender).toBe('OTHER');
    expect([second.createdAt, second.updatedAt]).toEqual([clock.now(), later.now()]);
    expect(accountProviders.items.size).toBe(1);
  });

  it('refuses invalid settings naming each field, and stores nothing', async () => {
    const { deps, accountProviders } = setup();
    const put = (o: unknown) => putAccountProvider(deps, { accountId: 'acc-1', configJson: JSON.stringify(o) });
    expect(await invalidFields(put({ ...kannelLike, sender: undefined }))).toEqual({ sender: expect.stringMatching(/expected string/) });
    expect(await invalidFields(put({ ...kannelLike, sender: 'MUCH TOO LONG' }))).toEqual({ sender: expect.stringMatching(/1-11 letters/) });
    expect(await invalidFields(put({ ...kannelLike, query: { ...kannelLike.query, to: 5 }, password: 'x' }))).toEqual({
      'query.to': expect.any(String),
      password: 'is not allowed',
    });
    expect(await invalidFields(put({ ...kannelLike, dlr: { delivered: [1] } }))).toEqual({ 'dlr.delivered[0]': expect.any(String) });
    expect(await invalidFields(put({ ...kannelLike, url: 'file:///etc/passwd', success: { body_regex: '(' } }))).toEqual({
      url: 'must be an http or https URL',
      'success.body_regex': expect.stringMatching(/Unterminated group/),
    });
    expect(await invalidFields(put({ ...kannelLike, query: { password: 'p' } }))).toEqual({
      '{to}': 'must appear in query, headers or body',
      '{text}': 'must appear in query, headers or body',
    });
    expect(await invalidFields(put({ ...kannelLike, body: '{"to":"{to}"}' }))).toEqual({ body: 'is not sent with method GET' });
    expect(await invalidFields(put([kannelLike]))).toEqual({ sms_provider: expect.stringMatching(/expected object/) });
    expect(await invalidFields(putAccountProvider(deps, { accountId: 'acc-1', configJson: '{' }))).toEqual({
      sms_provider: 'is not valid JSON',
    });
    expect(await invalidFields(putAccountProvider(deps, { accountId: '', configJson: JSON.stringify(kannelLike) }))).toEqual({
      account_id: 'is required',
    });
    // No message repeats a value it refused (values may be credentials).
    const fields = await invalidFields(put({ ...kannelLike, timeout_ms: 'pa55-word' }));
    expect(JSON.stringify(fields)).not.toContain('pa55-word');
    expect(accountProviders.items.size).toBe(0);
  });

  it('without a key in the deployment nothing is stored and the answer says so', async () => {
    const { deps, accountProviders, providerCache } = setup(false);
    await expect(putAccountProvider(deps, { accountId: 'acc-1', configJson: JSON.stringify(kannelLike) })).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(accountProviders.items.size).toBe(0);
    expect(providerCache.forgotten).toEqual([]);
  });

  it('GET and DELETE of an account without one are NOT_FOUND naming sms_provider; DELETE forgets it', async () => {
    const { deps, providerCache } = setup();
    await expect(getAccountProvider(deps, { accountId: 'acc-2' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { sms_provider: 'acc-2' },
    });
    await expect(deleteAccountProvider(deps, { accountId: 'acc-2' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { sms_provider: 'acc-2' },
    });

    await putAccountProvider(deps, { accountId: 'acc-2', configJson: JSON.stringify(kannelLike) });
    await deleteAccountProvider(deps, { accountId: 'acc-2' });
    expect(providerCache.forgotten).toEqual(['acc-2', 'acc-2', 'acc-2']);
    await expect(getAccountProvider(deps, { accountId: 'acc-2' })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
