import { describe, expect, it } from 'vitest';
import { bindDirectory, listBindings, unbindDirectory } from '../src/csv-workflow/domain/directory-binding.use-cases.js';
import type { CsvWorkflowDeps } from '../src/csv-workflow/ports.js';
import { directoriesOnly, MemoryBindings, MemoryCampaigns } from './fakes/memory-deps.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';
const OTHER_CAMPAIGN = '0b7d9e7c-2f55-4c8e-8a1b-5d3e0f9a1c2b';

async function setup() {
  const campaigns = new MemoryCampaigns();
  const base = {
    name: 'c',
    nodeId: 'n',
    flowId: 'f',
    channelId: 'ch',
    messageTemplate: '{{link}}',
    createdAt: new Date(),
    sendWindow: null,
    reminders: [],
    transliterate: false,
  };
  await campaigns.insert({ ...base, id: CAMPAIGN, accountId: 'acc-1' });
  await campaigns.insert({ ...base, id: OTHER_CAMPAIGN, accountId: 'acc-1' });
  let t = Date.parse('2026-11-25T06:00:00Z');
  const bound: string[] = [];
  const deps: Pick<CsvWorkflowDeps, 'campaigns' | 'files' | 'clock'> & { bindings: MemoryBindings } = {
    campaigns,
    bindings: new MemoryBindings(),
    files: directoriesOnly(async (accountId, directoryId) => accountId === 'acc-1' && directoryId.startsWith('dir-'), bound),
    clock: { now: () => new Date((t += 1000)) },
  };
  return Object.assign(deps, { bound });
}

describe('directory bindings', () => {
  it('lists a campaign’s bindings newest first, with customers.csv as the default name', async () => {
    const deps = await setup();
    await bindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'dir-1' });
    await bindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'dir-2', fileName: 'list.csv' });
    await bindDirectory(deps, { accountId: 'acc-1', campaignId: OTHER_CAMPAIGN, directoryId: 'dir-3' });
    const listed = await listBindings(deps, { accountId: 'acc-1', campaignId: CAMPAIGN });
    expect(listed.map((b) => [b.directoryId, b.fileName])).toEqual([
      ['dir-2', 'list.csv'],
      ['dir-1', 'customers.csv'],
    ]);
    // The file service knows each bound name, so its uploads show processing pending at once.
    expect(deps.bound).toEqual(['dir-1/customers.csv', 'dir-2/list.csv', 'dir-3/customers.csv']);
  });

  it('unbinds only the campaign’s own binding of the directory and name', async () => {
    const deps = await setup();
    await bindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'dir-1' });
    const gone = { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'dir-1', fileName: '' };
    // Another campaign, another name, another account: nothing removed, the missing one named.
    await expect(unbindDirectory(deps, { ...gone, campaignId: OTHER_CAMPAIGN })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { directory_id: 'dir-1' },
    });
    await expect(unbindDirectory(deps, { ...gone, fileName: 'other.csv' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(unbindDirectory(deps, { ...gone, accountId: 'acc-2' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { campaign_id: CAMPAIGN },
    });
    expect(await deps.bindings.find('dir-1', 'customers.csv')).not.toBeNull();
    await unbindDirectory(deps, gone);
    expect(await deps.bindings.find('dir-1', 'customers.csv')).toBeNull();
    expect(deps.bound).toEqual(['dir-1/customers.csv', '-dir-1/customers.csv']);
    await expect(unbindDirectory(deps, gone)).rejects.toMatchObject({ kind: 'not_found', fields: { directory_id: 'dir-1' } });
  });

  it('binding the same directory and name again moves it to the new campaign, keeping when it was first made', async () => {
    const deps = await setup();
    const first = await bindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'dir-1' });
    const moved = await bindDirectory(deps, { accountId: 'acc-1', campaignId: OTHER_CAMPAIGN, directoryId: 'dir-1', fileName: ' ' });
    expect(moved).toMatchObject({ campaignId: OTHER_CAMPAIGN, fileName: 'customers.csv', createdAt: first.createdAt });
    expect(moved.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    expect(await listBindings(deps, { accountId: 'acc-1', campaignId: CAMPAIGN })).toEqual([]);
    expect((await listBindings(deps, { accountId: 'acc-1', campaignId: OTHER_CAMPAIGN })).map((b) => b.directoryId)).toEqual(['dir-1']);
  });

  it('binds no directory the account does not have, naming directory_id', async () => {
    const deps = await setup();
    await expect(bindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'elsewhere' })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { directory_id: 'elsewhere' },
    });
    await expect(bindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: '' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { directory_id: 'is required' },
    });
    expect(deps.bindings.items.size).toBe(0);
  });

  it('refuses a foreign campaign and a bad file name by name', async () => {
    const deps = await setup();
    await expect(listBindings(deps, { accountId: 'acc-2', campaignId: CAMPAIGN })).rejects.toMatchObject({
      kind: 'not_found',
      fields: { campaign_id: CAMPAIGN },
    });
    await expect(
      unbindDirectory(deps, { accountId: 'acc-1', campaignId: CAMPAIGN, directoryId: 'dir-1', fileName: '../x' }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fields: { file_name: expect.stringMatching(/path separators/) },
    });
  });
});
