import { describe, expect, it } from 'vitest';
import { AppError } from '@feedback/kit-core';
import type { IntakeDeps } from '../src/intake/ports.js';
import { createSharing, type SharingRequest } from '../src/intake/domain/sharing.use-cases.js';
import { campaignOf, MemoryCampaigns, MemoryDispatch, MemoryOptOuts, MemoryJobs, MemorySharings } from './fakes/memory-deps.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';

async function setup(maxPhones = 10_000) {
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc-1', messageTemplate: 'Hi {{name}} {{link}}' }));
  const deps: Pick<IntakeDeps, 'campaigns' | 'clock' | 'newId' | 'settings'> & {
    sharings: MemorySharings;
    dispatch: MemoryDispatch;
    optOuts: MemoryOptOuts;
    jobs: MemoryJobs;
  } = {
    campaigns,
    sharings: new MemorySharings(),
    dispatch: new MemoryDispatch(),
    optOuts: new MemoryOptOuts(),
    jobs: new MemoryJobs(),
    clock: { now: () => new Date('2026-11-23T10:00:00Z') },
    newId: () => 'sharing-1',
    settings: { defaultRegion: 'TR', maxPhones, defaultSendWindow: null },
  };
  return deps;
}

const request = (phoneNumbers: string[], over: Partial<SharingRequest> = {}): SharingRequest => ({
  phoneNumbers,
  customAttributes: {},
  builtInResponses: {},
  ...over,
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('creating a sharing', () => {
  it('normalizes, drops duplicates, keeps attributes keyed as written, stores and publishes one event per recipient', async () => {
    const deps = await setup();
    const summary = await createSharing(deps, {
      accountId: 'acc-1',
      campaignId: CAMPAIGN,
      phoneNumbers: ['+90 532 123 45 67', '0532 123 45 67', 'nope', '05551112233'],
      customAttributes: {
        '+90 532 123 45 67': { name: 'Ayşe', external_id: 'X1', email: 'a@example.com' },
        '0532 123 45 67': { name: 'dropped' },
      },
      builtInResponses: { '05551112233': { customerDetailInfo1: 'gold', customerDetailInfo2: '7' } },
    });
    expect(summary).toEqual({
      id: 'sharing-1',
      accepted: 2,
      rejected: 1,
      duplicate: 1,
      rejectedPhones: [{ phone: 'nope', reason: 'not_a_number' }],
      scheduledFor: null,
    });
    const stored = deps.sharings.items.get('sharing-1')!;
    expect(stored.recipients).toEqual([
      {
        phone: '905321234567',
        input: '+90 532 123 45 67',
        attributes: { name: 'Ayşe', external_id: 'X1', email: 'a@example.com' },
        builtInResponses: {},
      },
      {
        phone: '905551112233',
        input: '05551112233',
        attributes: {},
        builtInResponses: { customerDetailInfo1: 'gold', customerDetailInfo2: '7' },
      },
    ]);
    expect(deps.dispatch.events.map((e) => [e.sharingId, e.campaignId, e.recipient.phone])).toEqual([
      ['sharing-1', CAMPAIGN, '905321234567'],
      ['sharing-1', CAMPAIGN, '905551112233'],
    ]);
  });

  it('answers 400 for a campaign id that is not a UUID, 404 for a foreign or unknown campaign', async () => {
    const deps = await setup();
    expect((await failure(createSharing(deps, { accountId: 'acc-1', campaignId: 'abc', ...request(['05321234567']) }))).fields).toEqual({
      campaign_id: 'must be a UUID',
    });
    const foreign = await failure(createSharing(deps, { accountId: 'acc-2', campaignId: CAMPAIGN, ...request(['05321234567']) }));
    expect(foreign.kind).toBe('not_found');
    expect(deps.dispatch.events).toHaveLength(0);
  });

  it('checks the rules of the request whoever sends it, naming the field', async () => {
    const deps = await setup();
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`a${i}`, 'v']));
    const cases: [SharingRequest, string, string][] = [
      [request([]), 'phone_numbers', 'must not be empty'],
      [request(['05321234567'], { customAttributes: { x: many } }), 'custom_attributes.x', 'has more than 50 attributes'],
      [
        request(['05321234567'], { builtInResponses: { x: { a: 'v'.repeat(1_001) } } }),
        'built_in_responses.x.a',
        'must be at most 1000 characters',
      ],
      // The names and values the survey service would refuse when it stores them at dispatch (kit-core's rule).
      [
        request(['05321234567'], { customAttributes: { '05321234567': { $x: '1' } } }),
        'custom_attributes.05321234567.$x',
        'name must be 1-64 characters, without dots, a leading $ or control characters',
      ],
      [
        request(['05321234567'], { customAttributes: { '05321234567': { 'a.b': '1' } } }),
        'custom_attributes.05321234567.a.b',
        'name must be 1-64 characters, without dots, a leading $ or control characters',
      ],
      [
        request(['05321234567'], { builtInResponses: { '05321234567': { $where: '1' } } }),
        'built_in_responses.05321234567.$where',
        'name must be 1-64 characters, without dots, a leading $ or control characters',
      ],
      [
        request(['05321234567'], { customAttributes: { '05321234567': { email: 'not-mail' } } }),
        'custom_attributes.05321234567.email',
        'is not an e-mail address',
      ],
    ];
    for (const [req, field, why] of cases) {
      const err = await failure(createSharing(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, ...req }));
      expect(err.kind).toBe('invalid');
      expect(err.fields).toEqual({ [field]: why });
    }
    expect(deps.sharings.items.size).toBe(0);
  });

  it('refuses more phones than the hard cap', async () => {
    const deps = await setup(3);
    const err = await failure(createSharing(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, ...request(['1', '2', '3', '4']) }));
    expect(err.fields.phone_numbers).toMatch(/at most 3/);
    expect(deps.sharings.items.size).toBe(0);
  });

  it('stores a sharing whose phones were all rejected, and publishes nothing', async () => {
    const deps = await setup();
    const summary = await createSharing(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, ...request(['x', '']) });
    expect(summary).toMatchObject({ accepted: 0, rejected: 2, duplicate: 0 });
    expect(deps.dispatch.events).toHaveLength(0);
  });

  it('de-duplicates across slices of a large list and answers the counts of all of them', async () => {
    const deps = await setup();
    const phones = Array.from({ length: 2_500 }, (_, i) => `0532 ${String(i % 2_100).padStart(7, '0')}`);
    const summary = await createSharing(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, ...request([...phones, 'x']) });
    expect(summary).toMatchObject({ accepted: 2_100, duplicate: 400, rejected: 1 });
    expect(deps.sharings.items.get('sharing-1')!.recipients).toHaveLength(2_100);
    expect(new Set(deps.dispatch.events.map((e) => e.recipient.phone)).size).toBe(2_100);
    expect(deps.dispatch.events).toHaveLength(2_100);
  });

  it('publishes nothing when storing the sharing fails, though its recipients were being written', async () => {
    const deps = await setup();
    const writeRecipients = deps.sharings.writeRecipients.bind(deps.sharings);
    deps.sharings.writeRecipients = (id: string) => ({
      ...writeRecipients(id),
      complete: async () => {
        throw new Error('the database refused a chunk');
      },
    });
    const phones = Array.from({ length: 1_500 }, (_, i) => `0532 ${String(i).padStart(7, '0')}`);
    await expect(createSharing(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, ...request(phones) })).rejects.toThrow(/refused a chunk/);
    expect(deps.sharings.pending.get('sharing-1')).toHaveLength(1_500);
    expect(deps.dispatch.events).toHaveLength(0);
  });
});
