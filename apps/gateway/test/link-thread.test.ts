import { afterEach, describe, expect, it } from 'vitest';
import { startLinkThread } from '../src/links/link-thread.js';

// startLinkThread against a fixture worker (test/fixtures/link-thread.fixture.ts) in each of its modes.
const fixture = new URL('./fixtures/link-thread.fixture.ts', import.meta.url);
const start = (mode: string, opts: { metricsTimeoutMs?: number; closeTimeoutMs?: number } = {}) => {
  process.env.LINK_THREAD_FIXTURE = mode; // a worker starts with a copy of the environment
  const crashes: Error[] = [];
  const lines: string[] = [];
  return { crashes, lines, thread: startLinkThread(fixture, { onCrash: (err) => crashes.push(err), log: (l) => lines.push(l), ...opts }) };
};
afterEach(() => {
  delete process.env.LINK_THREAD_FIXTURE;
});

describe('the link listener thread', () => {
  it('starts once listening, answers metrics, and closes when asked, its log lines written by the caller', async () => {
    const { thread, crashes, lines } = start('ok');
    const t = await thread;
    expect(t.port).toBe(4242);
    const [first, second] = await Promise.all([t.metrics(), t.metrics()]);
    expect(first![0]!.values[0]!.value).not.toBe(second![0]!.values[0]!.value); // each asker gets its own answer
    expect(first).toMatchObject([{ name: 'fixture_total', type: 'counter' }]);
    await t.close();
    await t.close(); // a second close is a no-op
    expect(await t.metrics()).toEqual([]);
    expect(crashes).toEqual([]);
    expect(lines).toEqual(['started\n', 'closing\n', 'closed\n']); // the last one posted just before the thread exited
  });

  it('fails to start when the thread fails before listening', async () => {
    await expect(start('fail-start').thread).rejects.toThrow('EADDRINUSE');
  });

  it('reports a crash after start once', async () => {
    const { thread, crashes } = start('crash');
    await thread;
    for (const started = Date.now(); crashes.length === 0 && Date.now() - started < 5_000;) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(crashes.map((e) => e.message)).toEqual(['boom in the link thread']);
  });

  it('leaves out the metrics of a thread that does not answer, and ends one that does not close', async () => {
    const { thread, crashes } = start('silent', { metricsTimeoutMs: 50, closeTimeoutMs: 200 });
    const t = await thread;
    expect(await t.metrics()).toEqual([]);
    const closing = Date.now();
    await t.close();
    expect(Date.now() - closing).toBeGreaterThanOrEqual(150);
    expect(crashes).toEqual([]);
  });
});
