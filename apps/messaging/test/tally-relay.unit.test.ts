import { describe, expect, it } from 'vitest';
import { bucketStart, countsOf, increments, npsClass, type Counts, type Increment, type OwedRecord } from '../src/reports/domain/tally.js';
import { relayTallies } from '../src/reports/domain/tally-relay.use-cases.js';
import type { OwedTallies, ReportsDeps, TakenEntries, TallyCounters, TallyJournal, TallyJournalEntry } from '../src/reports/tally.ports.js';

const at = (iso: string) => new Date(iso);

describe('the counters of owed entries', () => {
  it('buckets an instant by its 15-minute UTC floor', () => {
    expect(bucketStart(at('2026-11-28T10:29:59.999Z')).toISOString()).toBe('2026-11-28T10:15:00.000Z');
    expect(bucketStart(at('2026-11-28T10:30:00.000Z')).toISOString()).toBe('2026-11-28T10:30:00.000Z');
  });

  it('classes NPS scores: 9-10 promoters, 7-8 passives, 0-6 detractors', () => {
    expect([0, 6, 7, 8, 9, 10].map(npsClass)).toEqual(['detractors', 'detractors', 'passives', 'passives', 'promoters', 'promoters']);
  });

  it('counts a first message in the funnel, a reminder only by its segments', () => {
    expect(countsOf({ f: 'sent', at: new Date(0), seg: 2 }, 0)).toEqual({ sent: 1, segments: 2 });
    expect(countsOf({ f: 'sent', at: new Date(0), seg: 2 }, 1)).toEqual({ segments: 2 });
    expect(countsOf({ f: 'delivered', at: new Date(0) }, 1)).toEqual({});
    expect(countsOf({ f: 'answered', at: new Date(0), nps: 9 }, 0)).toEqual({ answered: 1, promoters: 1 });
    expect(countsOf({ f: 'answered', at: new Date(0) }, 0)).toEqual({ answered: 1 });
    expect(countsOf({ f: 'recipients', at: new Date(0), n: 300 }, 0)).toEqual({ recipients: 300 });
  });

  it('adds entries up per campaign bucket (at each entry time) and per sharing', () => {
    const records: OwedRecord[] = [
      msg('sh1.1', 'sh1', 0, [
        { f: 'sent', at: at('2026-11-28T10:14:00Z'), seg: 1 },
        { f: 'delivered', at: at('2026-11-28T10:16:00Z') },
      ]),
      msg('sh1.2', 'sh1', 0, [{ f: 'failed', at: at('2026-11-28T10:01:00Z') }]),
      msg('sh1.1.r1', 'sh1', 1, [{ f: 'sent', at: at('2026-11-28T10:20:00Z'), seg: 3 }]),
      {
        kind: 'sharing',
        id: 'sh1',
        accountId: 'a',
        campaignId: 'c',
        sharingId: 'sh1',
        reminder: 0,
        owed: [{ f: 'recipients', at: at('2026-11-28T10:00:00Z'), n: 2 }],
      },
    ];
    const byKey = Object.fromEntries(increments(records).map((i) => [`${i.kind}:${i.key}`, i.inc]));
    expect(byKey).toEqual({
      'campaign:c|2026-11-28T10:00:00.000Z': { sent: 1, segments: 1, failed: 1, recipients: 2 },
      'campaign:c|2026-11-28T10:15:00.000Z': { delivered: 1, segments: 3 },
      'sharing:sh1': { sent: 1, segments: 4, delivered: 1, failed: 1, recipients: 2 },
    });
  });
});

describe('the relay', () => {
  it('counts each owed entry once, also when a round is cut short at each of its steps', async () => {
    for (const failAt of ['apply', 'settle', 'close'] as const) {
      const t = fakes();
      t.owe('m1', [{ f: 'sent', at: at('2026-11-28T10:00:00Z'), seg: 2 }]);
      t.owe('m2', [{ f: 'opted_out', at: at('2026-11-28T10:00:00Z') }]);
      t.failOnce = failAt;
      await expect(relayTallies(t.deps)).rejects.toThrow('crash');
      // The next round finishes the journal the crash left, then finds nothing more owed.
      expect(await relayTallies(t.deps)).toBe(false);
      expect(t.counter('sharing', 'sh')).toEqual({ sent: 1, segments: 2, opted_out: 1 });
      expect(t.journal.size).toBe(0);
      expect([...t.records.values()].flat()).toEqual([]);
    }
  });

  it('keeps entries owed while a round runs for the next round', async () => {
    const t = fakes();
    t.owe('m1', [{ f: 'sent', at: at('2026-11-28T10:00:00Z'), seg: 1 }]);
    // Between the take and the pull, the record's delivery report pushes another entry.
    t.beforeSettle = () => t.records.get('m1')!.push({ f: 'delivered', at: at('2026-11-28T10:01:00Z') });
    await relayTallies(t.deps);
    expect(t.records.get('m1')).toHaveLength(1);
    t.beforeSettle = undefined;
    await relayTallies(t.deps);
    expect(t.counter('sharing', 'sh')).toEqual({ sent: 1, segments: 1, delivered: 1 });
  });

  it('writes no journal after its deadline (its lease may be another replica’s by then): the next run takes the entries', async () => {
    const t = fakes();
    t.owe('m1', [{ f: 'sent', at: at('2026-11-28T10:00:00Z'), seg: 1 }]);
    expect(await relayTallies(t.deps, 10, new Date('2026-11-28T10:04:59Z'))).toBe(true);
    expect(t.journal.size).toBe(0);
    expect(t.counter('sharing', 'sh')).toEqual({});
    expect(await relayTallies(t.deps, 10, new Date('2026-11-28T10:05:01Z'))).toBe(false);
    expect(t.counter('sharing', 'sh')).toEqual({ sent: 1, segments: 1 });
  });

  it('answers true after a full batch, so the job runs again at once', async () => {
    const t = fakes();
    for (let i = 0; i < 3; i++) t.owe(`m${i}`, [{ f: 'failed', at: at('2026-11-28T10:00:00Z') }]);
    expect(await relayTallies(t.deps, 2)).toBe(true);
    expect(await relayTallies(t.deps, 2)).toBe(false);
    expect(t.counter('sharing', 'sh')).toEqual({ failed: 3 });
  });
});

const msg = (id: string, sharingId: string, reminder: number, owed: OwedRecord['owed']): OwedRecord => ({
  kind: 'message',
  id,
  accountId: 'a',
  campaignId: 'c',
  sharingId,
  reminder,
  owed,
});

/** In-memory ports with the relay's contract: counters take a token once, settle pulls exactly the taken entries. */
function fakes() {
  const records = new Map<string, OwedRecord['owed']>();
  const journal = new Map<string, TallyJournalEntry>();
  const counters = new Map<string, Counts & { applied: string[] }>();
  const t = {
    records,
    journal,
    failOnce: undefined as 'apply' | 'settle' | 'close' | undefined,
    beforeSettle: undefined as (() => void) | undefined,
    owe: (id: string, owed: OwedRecord['owed']) => records.set(id, [...(records.get(id) ?? []), ...owed]),
    counter: (kind: Increment['kind'], key: string) => {
      const { applied: _applied, ...counts } = counters.get(`${kind}:${key}`) ?? { applied: [] };
      return counts;
    },
    deps: undefined as unknown as ReportsDeps,
  };
  const crash = (step: 'apply' | 'settle' | 'close') => {
    if (t.failOnce !== step) return;
    t.failOnce = undefined;
    throw new Error('crash');
  };
  const j: TallyJournal = {
    unfinished: async () => [...journal.values()],
    open: async (e) => void journal.set(e.token, structuredClone(e)),
    close: async (token) => {
      crash('close');
      journal.delete(token);
    },
  };
  const c: TallyCounters = {
    apply: async (token, incs) => {
      // Half applied, then the crash: the rest is applied when the journal is finished.
      incs.forEach((i, k) => {
        if (k === 1) crash('apply');
        const doc = counters.get(`${i.kind}:${i.key}`) ?? { applied: [] };
        if (doc.applied.includes(token)) return;
        for (const [name, n] of Object.entries(i.inc) as [keyof Counts, number][]) doc[name] = (doc[name] ?? 0) + n;
        doc.applied.push(token);
        counters.set(`${i.kind}:${i.key}`, doc);
      });
    },
  };
  const o: OwedTallies = {
    take: async (limit) =>
      [...records]
        .filter(([, owed]) => owed.length > 0)
        .slice(0, limit)
        .map(([id, owed]) => msg(id, 'sh', 0, structuredClone(owed))),
    settle: async (taken: TakenEntries[]) => {
      t.beforeSettle?.();
      taken.forEach((r, k) => {
        if (k === 1) crash('settle');
        const keys = new Set(r.owed.map((e) => JSON.stringify(e)));
        records.set(
          r.id,
          (records.get(r.id) ?? []).filter((e) => !keys.has(JSON.stringify(e))),
        );
      });
    },
  };
  let n = 0;
  t.deps = { journal: j, counters: c, owed: o, clock: { now: () => new Date('2026-11-28T10:05:00Z') }, newToken: () => `t${++n}` };
  return t;
}
