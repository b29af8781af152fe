import { errors } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { describe, expect, it } from 'vitest';
import { csvRecords } from '../src/csv-workflow/adapters/csv/csv-records.js';
import { runCsvWorkflow } from '../src/csv-workflow/domain/csv-workflow.use-cases.js';
import type { CsvImport } from '../src/csv-workflow/domain/directory-binding.js';
import type { ClaimedFile, CsvImportLog, CsvWorkflowDeps, FileOutcome, WorkflowFiles } from '../src/csv-workflow/ports.js';
import type { OptOutRepository } from '../src/opt-outs/ports.js';
import {
  campaignOf,
  MemoryBindings,
  MemoryCampaigns,
  MemoryDispatch,
  MemoryOptOuts,
  MemoryJobs,
  MemorySharings,
} from './fakes/memory-deps.js';

const CAMPAIGN = '6f1c2a5e-8a43-4c1b-9a57-2f0c3d1e4b5a';

/** The file service's claim rule in memory: the newest unclaimed file of the name, older ones superseded. */
class FakeFiles implements WorkflowFiles {
  readonly files: (ClaimedFile & { text: string; state: string; claimer?: string })[] = [];
  upload(filename: string, text: string) {
    this.files.push({
      id: `f${this.files.length + 1}`,
      accountId: 'acc-1',
      directoryId: 'dir-1',
      filename,
      blobToken: `b${this.files.length}`,
      size: text.length,
      text,
      state: 'unprocessed',
    });
  }
  async directoryExists(accountId: string, directoryId: string) {
    return accountId === 'acc-1' && directoryId === 'dir-1';
  }
  async claimLatest(q: { directoryId: string; filename: string; claimer: string }) {
    const named = this.files.filter((f) => f.directoryId === q.directoryId && f.filename === q.filename).reverse();
    const [latest, ...older] = named;
    if (!latest || latest.state !== 'unprocessed') return { file: null, superseded: 0 };
    Object.assign(latest, { state: 'processing', claimer: q.claimer });
    const superseded = older.filter((f) => f.state === 'unprocessed');
    for (const f of superseded) f.state = 'superseded';
    return { file: latest, superseded: superseded.length };
  }
  records(file: ClaimedFile) {
    const text = this.files.find((f) => f.id === file.id)!.text;
    return csvRecords(
      (async function* () {
        yield Buffer.from(text);
      })(),
    );
  }
  async complete(q: { fileId: string; claimer: string; outcome: string }) {
    const f = this.files.find((x) => x.id === q.fileId)!;
    if (f.state !== 'processing' || f.claimer !== q.claimer) throw new Error('not the claimer');
    f.state = q.outcome;
  }
  /** RecordProcessing's calls, repeats included; `failNext` makes that many throw UNAVAILABLE. */
  readonly outcomes: { fileId: string; outcome: FileOutcome }[] = [];
  failNext = 0;
  /** Files deleted since their upload: RecordProcessing answers NOT_FOUND. */
  readonly deleted = new Set<string>();
  async recordOutcome(q: { fileId: string; outcome: FileOutcome }) {
    if (this.deleted.has(q.fileId)) throw errors.notFound('file_id', q.fileId);
    if (this.failNext > 0 && this.failNext--) throw errors.invalid({ file_id: 'refused for the test' });
    this.outcomes.push({ fileId: q.fileId, outcome: q.outcome });
  }
  async setBound() {}
}

async function setup() {
  const campaigns = new MemoryCampaigns();
  await campaigns.insert(campaignOf({ id: CAMPAIGN, accountId: 'acc-1' }));
  const bindingRepo = new MemoryBindings();
  await bindingRepo.upsert({
    accountId: 'acc-1',
    campaignId: CAMPAIGN,
    directoryId: 'dir-1',
    fileName: 'customers.csv',
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const imports: CsvImport[] = [];
  const importLog: CsvImportLog = {
    record: async (i) => void imports.push(i),
    findByFile: async (id) => imports.find((i) => i.fileId === id) ?? null,
  };
  let ids = 0;
  // What createSharing is handed (the workflow's `intake`), the same ports as the workflow's own.
  const intake = {
    campaigns,
    sharings: new MemorySharings(),
    dispatch: new MemoryDispatch(),
    optOuts: new MemoryOptOuts(),
    jobs: new MemoryJobs(),
    clock: { now: () => new Date('2026-11-23T10:00:00Z') },
    newId: () => `sharing-${++ids}`,
    settings: { defaultRegion: 'TR', maxPhones: 3, defaultSendWindow: null },
  };
  const deps: Pick<CsvWorkflowDeps, 'campaigns' | 'clock' | 'newId' | 'settings' | 'bindings' | 'imports' | 'logger'> & {
    files: FakeFiles;
    sharings: MemorySharings;
    dispatch: MemoryDispatch;
    jobs: MemoryJobs;
    optOuts: OptOutRepository;
    intake: typeof intake;
  } = {
    ...intake,
    intake,
    bindings: bindingRepo,
    files: new FakeFiles(),
    imports: importLog,
    logger: createLogger('csv-test', 'silent'),
  };
  return { deps, imports };
}

const uploaded = (filename = 'customers.csv', accountId = 'acc-1') => ({ accountId, directoryId: 'dir-1', filename });

describe('the CSV workflow', () => {
  it('runs only for a bound directory and name of the same account', async () => {
    const { deps } = await setup();
    deps.files.upload('other.csv', 'phone\n05321234567\n');
    expect(await runCsvWorkflow(deps, uploaded('other.csv'))).toEqual({ outcome: 'not_bound' });
    expect(await runCsvWorkflow(deps, uploaded('customers.csv', 'acc-2'))).toEqual({ outcome: 'not_bound' });
    expect(deps.files.files[0]!.state).toBe('unprocessed');
  });

  it('makes one sharing from the latest file only; bad rows are stored on it with their line', async () => {
    const { deps, imports } = await setup();
    deps.files.upload('customers.csv', 'phone\n05551112233\n');
    deps.files.upload('customers.csv', 'phone,name,tier\n05321234567,Ayşe,gold\nnope,X,y\n05321234567,Again,z\n,Empty,\n');
    const result = await runCsvWorkflow(deps, uploaded());
    expect(result).toMatchObject({
      outcome: 'processed',
      import: { fileId: 'f2', sharingId: 'sharing-1', rows: 4, accepted: 1, rejected: 2, superseded: 1, reason: null },
    });
    const { sharing, recipients } = deps.sharings.items.get('sharing-1')!;
    expect(sharing).toMatchObject({ campaignId: CAMPAIGN, accepted: 1, duplicates: 1 });
    expect(sharing.rejected).toEqual([
      { phone: 'nope', reason: 'not_a_number', row: 3 },
      { phone: '', reason: 'empty', row: 5 },
    ]);
    expect(recipients).toEqual([
      { phone: '905321234567', input: '05321234567', attributes: { name: 'Ayşe', tier: 'gold' }, builtInResponses: {} },
    ]);
    expect(deps.dispatch.events).toHaveLength(1);
    expect(deps.files.files.map((f) => f.state)).toEqual(['superseded', 'processed']);
    expect(imports).toHaveLength(1);
    // The file's entry gets the outcome: counts, the sharing, and the refused rows by line, with no phone in them.
    expect(deps.files.outcomes).toEqual([
      {
        fileId: 'f2',
        outcome: {
          status: 'processed',
          sharingId: 'sharing-1',
          rows: 4,
          accepted: 1,
          rejected: 2,
          errors: [
            { row: 3, reason: 'not_a_number' },
            { row: 5, reason: 'empty' },
          ],
          reason: null,
        },
      },
    ]);

    // The second upload's event (or a redelivery) finds nothing unprocessed: the workflow does not run.
    expect(await runCsvWorkflow(deps, uploaded())).toEqual({ outcome: 'nothing_to_run' });
    expect(deps.sharings.items.size).toBe(1);
  });

  it('sends the outcome again when a redelivered event finds the file done (its first report failed)', async () => {
    const { deps } = await setup();
    deps.files.upload('customers.csv', 'phone\n05321234567\n');
    deps.files.failNext = 1;
    await expect(runCsvWorkflow(deps, { ...uploaded(), fileId: 'f1' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(deps.files.outcomes).toEqual([]);
    expect(await runCsvWorkflow(deps, { ...uploaded(), fileId: 'f1' })).toEqual({ outcome: 'nothing_to_run' });
    expect(deps.files.outcomes).toMatchObject([{ fileId: 'f1', outcome: { status: 'processed', accepted: 1, errors: [] } }]);
    expect(deps.sharings.items.size).toBe(1);
  });

  it('ends quietly when the file was deleted before its outcome could be shown on it', async () => {
    const { deps, imports } = await setup();
    deps.files.upload('customers.csv', 'phone\n05321234567\n');
    deps.files.deleted.add('f1');
    expect(await runCsvWorkflow(deps, { ...uploaded(), fileId: 'f1' })).toMatchObject({ outcome: 'processed' });
    expect(await runCsvWorkflow(deps, { ...uploaded(), fileId: 'f1' })).toEqual({ outcome: 'nothing_to_run' });
    expect(imports).toHaveLength(1);
    expect(deps.files.outcomes).toEqual([]);
  });

  it('fails a file without valid rows, with the reason, and makes no sharing', async () => {
    const { deps } = await setup();
    deps.files.upload('customers.csv', 'phone,name\nnope,A\n12,B\n');
    expect(await runCsvWorkflow(deps, uploaded())).toMatchObject({
      outcome: 'failed',
      import: { sharingId: null, rows: 2, rejected: 2, reason: 'none of the 2 rows is valid (first: line 2, not_a_number)' },
    });
    deps.files.upload('customers.csv', 'name\nAyşe\n');
    expect(await runCsvWorkflow(deps, uploaded())).toMatchObject({
      outcome: 'failed',
      import: { reason: expect.stringMatching(/no phone column/) },
    });
    deps.files.upload('customers.csv', 'phone\n05321234560\n05321234561\n05321234562\n05321234563\n');
    expect(await runCsvWorkflow(deps, uploaded())).toMatchObject({
      outcome: 'failed',
      import: { reason: expect.stringMatching(/more than 3 rows/) },
    });
    expect(deps.files.files.map((f) => f.state)).toEqual(['failed', 'failed', 'failed']);
    expect(deps.sharings.items.size).toBe(0);
    expect(deps.files.outcomes.map((o) => [o.outcome.status, o.outcome.rows, o.outcome.errors])).toEqual([
      [
        'failed',
        2,
        [
          { row: 2, reason: 'not_a_number' },
          { row: 3, reason: 'too_short' },
        ],
      ],
      ['failed', 0, []],
      ['failed', 0, []],
    ]);
  });

  it('fails the file when the campaign is gone', async () => {
    const { deps } = await setup();
    // Gone for the workflow and for createSharing, which it hands the file's rows.
    deps.campaigns = deps.intake.campaigns = new MemoryCampaigns();
    deps.files.upload('customers.csv', 'phone\n05321234567\n');
    expect(await runCsvWorkflow(deps, uploaded())).toMatchObject({
      outcome: 'failed',
      import: { reason: expect.stringMatching(/campaign_id/) },
    });
    expect(deps.files.outcomes[0]?.outcome).toMatchObject({ status: 'failed', reason: expect.stringMatching(/campaign_id/) });
  });
});
