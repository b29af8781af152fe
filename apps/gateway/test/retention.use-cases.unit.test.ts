import { AppError, type AccountRetention } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { getRetention, setRetention, type RetentionDeps, type StoredRetention } from '../src/accounts/domain/retention.use-cases.js';

/** In-memory fakes of the accounts' and retention ports; a clock that can step back. */
function fakes(opts: { publishFails?: boolean } = {}) {
  const stored = new Map<string, StoredRetention>();
  const published: AccountRetention[] = [];
  let now = new Date('2026-11-28T10:00:00.000Z');
  const deps: RetentionDeps = {
    accounts: {
      insert: async () => undefined,
      findById: async (id) => (id === 'acc' ? { id, name: 'Acme', createdAt: now } : null),
    },
    clock: { now: () => now },
    retention: { find: async (id) => stored.get(id) ?? null, save: async (s) => void stored.set(s.accountId, s) },
    retentionEvents: {
      published: async (s) => {
        if (opts.publishFails) throw new Error('kafka away');
        published.push(s);
      },
    },
    retentionDefaults: { messages: 365, responses: 730, webhook_deliveries: 30 },
  };
  return { deps, stored, published, setNow: (d: Date) => (now = d) };
}

describe('account retention use cases', () => {
  it('retention_days fills every kind not given; a kind of its own wins; the rest stays on the default', async () => {
    const f = fakes();
    const v = await setRetention(f.deps, 'acc', { retentionDays: 90, days: { messages: 30 } });
    expect(v.effective).toEqual({
      messages: { days: 30, source: 'account' },
      responses: { days: 90, source: 'account' },
      webhook_deliveries: { days: 90, source: 'account' },
    });
    expect(f.published[0]?.days).toEqual({ messages: 30, responses: 90, webhook_deliveries: 90 });

    const only = await setRetention(f.deps, 'acc', { days: { responses: 0 } });
    expect(only.retentionDays).toBeNull();
    expect(only.effective.messages).toEqual({ days: 365, source: 'default' });
    expect(only.effective.responses).toEqual({ days: 0, source: 'account' });
    expect((await getRetention(f.deps, 'acc')).effective).toEqual(only.effective);
  });

  it('each change publishes a higher version, even when the clock steps back', async () => {
    const f = fakes();
    await setRetention(f.deps, 'acc', { retentionDays: 10, days: {} });
    f.setNow(new Date('2026-11-28T09:00:00.000Z'));
    await setRetention(f.deps, 'acc', { retentionDays: 20, days: {} });
    expect(f.published[1]!.version).toBeGreaterThan(f.published[0]!.version);
  });

  it('an unknown account is not found, naming account_id; a failed publish is 503 with the setting stored', async () => {
    const f = fakes();
    await expect(getRetention(f.deps, 'nope')).rejects.toMatchObject({ kind: 'not_found', fields: { account_id: 'nope' } });
    await expect(setRetention(f.deps, 'nope', { retentionDays: 1, days: {} })).rejects.toBeInstanceOf(AppError);

    const down = fakes({ publishFails: true });
    await expect(setRetention(down.deps, 'acc', { retentionDays: 7, days: {} })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(down.stored.get('acc')?.days).toEqual({ messages: 7, responses: 7, webhook_deliveries: 7 });
  });
});
