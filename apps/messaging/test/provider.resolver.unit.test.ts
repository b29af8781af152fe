import { describe, expect, it } from 'vitest';
import { CachedProviderResolver } from '../src/providers/adapters/provider.resolver.js';
import type { AccountProvider, AccountProviderSettings } from '../src/providers/domain/account-provider.js';
import type { SmsProvider } from '../src/providers/ports.js';

const deployment: SmsProvider = { name: 'outbox', send: async () => ({ outcome: 'accepted' }) };

function setup() {
  const stored = new Map<string, AccountProvider>();
  const reads: string[] = [];
  let failNext: Error | undefined;
  let gate: Promise<void> | undefined;
  let now = 0;
  const resolver = new CachedProviderResolver({
    accountProviders: {
      find: async (accountId) => {
        reads.push(accountId);
        // What the database held when the read began, answered once the gate opens.
        const found = stored.get(accountId) ?? null;
        await gate;
        if (failNext) {
          const err = failNext;
          failNext = undefined;
          throw err;
        }
        return found;
      },
    },
    deployment,
    build: (settings: AccountProviderSettings) => ({ name: `account-${settings.sender}`, send: async () => ({ outcome: 'accepted' }) }),
    ttlMs: 30_000,
    now: () => now,
  });
  const own = (accountId: string, sender: string) =>
    stored.set(accountId, {
      accountId,
      settings: { url: 'http://x', sender, query: {}, headers: {}, body_encoding: 'json' },
      createdAt: new Date(0),
      updatedAt: new Date(0),
    });
  return {
    resolver,
    reads,
    own,
    stored,
    advance: (ms: number) => void (now += ms),
    failOnce: (err: Error) => void (failNext = err),
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('the provider of an account', () => {
  it("is the account's own when it has one, else the deployment's; either answer is remembered for the TTL", async () => {
    const { resolver, reads, own, advance } = setup();
    own('a', 'ACME');
    expect((await resolver.forAccount('a')).name).toBe('account-ACME');
    expect(await resolver.forAccount('b')).toBe(deployment);
    await resolver.forAccount('a');
    await resolver.forAccount('b');
    expect(reads).toEqual(['a', 'b']);

    own('b', 'BETA'); // set by another replica: seen once the TTL has passed
    advance(29_999);
    expect(await resolver.forAccount('b')).toBe(deployment);
    advance(1);
    expect((await resolver.forAccount('b')).name).toBe('account-BETA');
    expect(reads).toEqual(['a', 'b', 'b']);
  });

  it('forget() makes the next call read again', async () => {
    const { resolver, reads, own, stored } = setup();
    own('a', 'ACME');
    await resolver.forAccount('a');
    stored.delete('a');
    resolver.forget('a');
    expect(await resolver.forAccount('a')).toBe(deployment);
    expect(reads).toEqual(['a', 'a']);
  });

  it('calls during one read share it; a read that began before forget() is not remembered after it', async () => {
    const { resolver, reads, own, hold } = setup();
    own('a', 'OLD');
    const open = hold();
    const first = resolver.forAccount('a');
    const second = resolver.forAccount('a');
    own('a', 'NEW');
    resolver.forget('a'); // a PUT in this process while the read runs
    open();
    expect((await first).name).toBe('account-OLD');
    expect((await second).name).toBe('account-OLD');
    expect((await resolver.forAccount('a')).name).toBe('account-NEW');
    expect(reads).toEqual(['a', 'a']);
  });

  it('a failed read throws and is not remembered', async () => {
    const { resolver, reads, own, failOnce } = setup();
    own('a', 'ACME');
    failOnce(new Error('no key opens it'));
    await expect(resolver.forAccount('a')).rejects.toThrow('no key opens it');
    expect((await resolver.forAccount('a')).name).toBe('account-ACME');
    expect(reads).toEqual(['a', 'a']);
  });
});
