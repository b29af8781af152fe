import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ruleVerdict, type LinkRulesDeps } from '../src/links/link-rules.js';

/** A limit kept in memory, and a click filter that says whether each request counts. */
function fakes(counts: boolean[]) {
  const used = new Map<string, number>();
  const recorded: string[] = [];
  const deps: LinkRulesDeps = {
    now: () => 1_000,
    clicks: {
      record: (code) => void recorded.push(`redirect ${code}`),
      admitted: async (code, _req, admit) => {
        const counted = counts.shift() ?? false;
        const yes = await admit(counted);
        if (yes) recorded.push(`${counted ? 'click' : 'excluded'} ${code}`);
        return yes;
      },
    },
    limit: {
      take: async (code, max) => {
        used.set(code, (used.get(code) ?? 0) + 1);
        return used.get(code)! <= max;
      },
      hasRoom: async (code, max) => (used.get(code) ?? 0) < max,
    },
  };
  return { deps, recorded };
}

const req = {} as IncomingMessage;

describe('a link’s expiry and click limit on the redirect', () => {
  it('answers expired from expires_at on, without counting anything', async () => {
    const { deps, recorded } = fakes([true]);
    expect(await ruleVerdict(deps, 'Exp1', { expiresAtMs: 1_000, maxClicks: 5 }, req)).toBe('expired');
    expect(await ruleVerdict(deps, 'Exp1', { expiresAtMs: 999 }, req)).toBe('expired');
    expect(recorded).toEqual([]);
    expect(await ruleVerdict(deps, 'Exp1', { expiresAtMs: 1_001 }, req)).toBe('redirect');
    expect(recorded).toEqual(['redirect Exp1']);
  });

  it('lets max_clicks counted clicks through and refuses the next; requests that count nothing pass while there is room', async () => {
    // A preview (not counted), the person's tap, the preview again, the person's next tap.
    const { deps, recorded } = fakes([false, true, false, true]);
    const rules = { maxClicks: 1 };
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await ruleVerdict(deps, 'Once1', rules, req));
    expect(verdicts).toEqual(['redirect', 'redirect', 'expired', 'expired']);
    expect(recorded).toEqual(['excluded Once1', 'click Once1']);
  });

  it('counts each link apart', async () => {
    const { deps } = fakes([true, true, true]);
    expect(await ruleVerdict(deps, 'A0001', { maxClicks: 1 }, req)).toBe('redirect');
    expect(await ruleVerdict(deps, 'B0001', { maxClicks: 1 }, req)).toBe('redirect');
    expect(await ruleVerdict(deps, 'A0001', { maxClicks: 1 }, req)).toBe('expired');
  });
});
