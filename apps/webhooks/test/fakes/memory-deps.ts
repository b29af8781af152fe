import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import type { AttemptOutcome, DeliveryRepository, EndpointRepository, SendResult, WebhooksDeps } from '../../src/domain/ports.js';
import type { Delivery, Endpoint } from '../../src/domain/webhook.js';
import { testCipher } from '../stack.js';

/** In-memory ports for the domain's rules; `sent` records what the transport was handed. */
export function memoryDeps(now: { value: Date }, answer: (url: string) => SendResult) {
  const endpoints = new Map<string, Endpoint>();
  const deliveries = new Map<string, Delivery & { claim: string | null }>();
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  const endpointRepo: EndpointRepository = {
    insert: async (e) => void endpoints.set(e.id, structuredClone(e)),
    find: async (a, id) => (endpoints.get(id)?.accountId === a ? structuredClone(endpoints.get(id)!) : null),
    findById: async (id) => (endpoints.has(id) ? structuredClone(endpoints.get(id)!) : null),
    list: async (a) => ({ items: [...endpoints.values()].filter((e) => e.accountId === a), nextPageToken: '' }),
    subscribed: async (a, t) => [...endpoints.values()].filter((e) => e.accountId === a && e.enabled && e.events.includes(t)),
    update: async (a, id, patch, at, guard) => {
      const e = endpoints.get(id);
      if (!e || e.accountId !== a) return null;
      if (guard && e.disabledReason === guard.unlessDisabledReason) return null;
      Object.assign(e, patch, { updatedAt: at });
      return structuredClone(e);
    },
    delete: async (a, id) => endpoints.get(id)?.accountId === a && endpoints.delete(id),
    count: async (a) => [...endpoints.values()].filter((e) => e.accountId === a).length,
    markFailing: async (id, at) => (endpoints.get(id)!.failingSince ??= at),
    markHealthy: async (id) => void (endpoints.get(id)!.failingSince = null),
    disable: async (id, reason) => {
      const e = endpoints.get(id)!;
      if (e.disabledReason !== 'operator') Object.assign(e, { enabled: false, disabledReason: reason, failingSince: null });
    },
  };
  const deliveryRepo: DeliveryRepository = {
    insertNew: async (ds, claim) => {
      const added: Delivery[] = [];
      for (const d of ds) {
        if ([...deliveries.values()].some((x) => x.endpointId === d.endpointId && x.eventId === d.eventId)) continue;
        const stored = { ...structuredClone(d), claim: claim?.claimId ?? null };
        if (claim) stored.nextAttemptAt = claim.heldUntil;
        deliveries.set(d.id, stored);
        added.push(d);
      }
      return added;
    },
    find: async (_a, _e, id) => deliveries.get(id) ?? null,
    list: async (_a, e) => ({ items: [...deliveries.values()].filter((d) => d.endpointId === e), nextPageToken: '' }),
    claimDue: async (at, leaseMs, claim, limit) => {
      const due = [...deliveries.values()].filter((x) => x.status === 'pending' && x.nextAttemptAt! <= at).slice(0, limit);
      for (const d of due) Object.assign(d, { claim, nextAttemptAt: new Date(at.getTime() + leaseMs) });
      return due.map((d) => structuredClone(d));
    },
    finish: async (id, claim, o: AttemptOutcome) => {
      const d = deliveries.get(id)!;
      if (d.claim !== claim) return false;
      Object.assign(d, { status: o.status, nextAttemptAt: o.nextAttemptAt, retryIndex: o.retryIndex, claim: null, note: o.note ?? d.note });
      if (o.attempt) d.attempts.push(o.attempt);
      return true;
    },
    replay: async () => null,
    deleteForEndpoint: async () => undefined,
  };
  const testWindows = new Map<string, number>();
  const deps: WebhooksDeps = {
    endpoints: endpointRepo,
    deliveries: deliveryRepo,
    testSends: {
      hit: async (a, start) => {
        const key = `${a}:${start.getTime()}`;
        testWindows.set(key, (testWindows.get(key) ?? 0) + 1);
        return testWindows.get(key)!;
      },
    },
    cipher: testCipher(),
    transport: {
      send: async (url, headers, body) => {
        sent.push({ url, headers, body });
        return answer(url);
      },
    },
    urlPolicy: async () => null,
    settings: {
      retrySchedule: [5_000, 30_000],
      disableAfterMs: 86_400_000,
      rotationOverlapMs: 86_400_000,
      leaseMs: 60_000,
      maxEndpointsPerAccount: 20,
      testSendsPerMinute: 10,
    },
    clock: { now: () => now.value },
    newId: randomUUID,
    random: () => 0.5,
    logger: createLogger('webhooks-test', 'silent'),
  };
  return { deps, endpoints, deliveries, sent };
}
