import { AppError } from '@feedback/kit-core';
import { CsvFormatError, readCustomerRows, type CustomerRows } from './customer-csv.js';
import type { CsvImport } from './directory-binding.js';
import type { ClaimedFile, CsvWorkflowDeps, FileOutcome } from '../ports.js';
import type { RejectedPhone } from '../../shared/domain/sharing.js';
import { createSharing } from '../../intake/domain/sharing.use-cases.js';

/** The file service's and the workflow's own ports, and what createSharing needs. */
type Deps = Pick<CsvWorkflowDeps, 'bindings' | 'files' | 'imports' | 'logger' | 'clock' | 'newId' | 'settings'> & {
  intake: Parameters<typeof createSharing>[0];
};

/** What a `file.uploaded` event says about the upload. */
export interface UploadedFile {
  /** The uploaded file (a redelivered event re-sends its outcome); the claim may pick a newer one. */
  fileId?: string;
  accountId: string;
  directoryId: string;
  filename: string;
}

export type CsvWorkflowResult =
  { outcome: 'not_bound' } | { outcome: 'nothing_to_run' } | { outcome: 'processed' | 'failed'; import: CsvImport };

/** Attempts of CompleteProcessing (a claim never completed stays "processing" for good) and of RecordProcessing. */
const COMPLETE_ATTEMPTS = 4;
/** Refused rows the file's entry shows. */
const MAX_ERRORS = 100;

/**
 * The file workflow (docs/api.md "Workflows on files") for a directory bound to an SMS campaign: an upload of the bound name claims the
 * latest unprocessed file of that name (an older one uploaded before the claim is superseded;
 * none means the workflow does not run), reads its rows, makes one sharing through the same use
 * case as the API (bad rows stored on it as rejected, with their line) and ends the claim.
 *
 * Once claimed, the file is processed at most once: every failure after the claim ends it as
 * failed (with the reason in the import log) rather than being retried, because a retried
 * event finds the file claimed and would never run again. The sharing id is the claimer. The
 * outcome goes onto the file's entry last (RecordProcessing, idempotent): should that call fail,
 * the event is redelivered, finds nothing to claim, and sends the recorded outcome again.
 */
export async function runCsvWorkflow(deps: Deps, uploaded: UploadedFile): Promise<CsvWorkflowResult> {
  const binding = await deps.bindings.find(uploaded.directoryId, uploaded.filename);
  if (!binding || binding.accountId !== uploaded.accountId) return { outcome: 'not_bound' };

  const claimer = deps.newId();
  const { file, superseded } = await deps.files.claimLatest({
    accountId: binding.accountId,
    directoryId: binding.directoryId,
    filename: binding.fileName,
    claimer,
  });
  if (!file) {
    const done = uploaded.fileId ? await deps.imports.findByFile(uploaded.fileId) : null;
    if (done) await report(deps, done);
    return { outcome: 'nothing_to_run' };
  }
  const log = deps.logger.child({ file: file.id, sharing: claimer, campaign: binding.campaignId });

  const base = {
    fileId: file.id,
    accountId: file.accountId,
    directoryId: file.directoryId,
    fileName: file.filename,
    campaignId: binding.campaignId,
    superseded,
  };
  let result: CsvImport;
  try {
    const rows = await readCustomerRows(deps.files.records(file), {
      defaultRegion: deps.settings.defaultRegion,
      maxRows: deps.settings.maxPhones,
    });
    result = { ...base, ...(await share(deps, file, binding.campaignId, claimer, rows)), createdAt: deps.clock.now() };
  } catch (err) {
    const reason =
      err instanceof CsvFormatError || err instanceof AppError ? describe(err) : `could not process the file: ${(err as Error).message}`;
    if (!(err instanceof CsvFormatError || err instanceof AppError)) log.error({ err }, 'csv workflow failed');
    result = {
      ...base,
      sharingId: null,
      outcome: 'failed',
      reason,
      rows: 0,
      accepted: 0,
      rejected: 0,
      errors: [],
      createdAt: deps.clock.now(),
    };
  }
  await retried(() => deps.files.complete({ accountId: file.accountId, fileId: file.id, claimer, outcome: result.outcome }));
  await deps.imports.record(result);
  await report(deps, result);
  log.info(
    {
      outcome: result.outcome,
      reason: logged(result.reason),
      rows: result.rows,
      accepted: result.accepted,
      rejected: result.rejected,
      superseded,
    },
    'csv workflow done',
  );
  return { outcome: result.outcome, import: result };
}

async function share(
  deps: Deps,
  file: ClaimedFile,
  campaignId: string,
  sharingId: string,
  { rows, rejected, total }: CustomerRows,
): Promise<Pick<CsvImport, 'sharingId' | 'outcome' | 'reason' | 'rows' | 'accepted' | 'rejected' | 'errors'>> {
  if (rows.length === 0) {
    const reason =
      total === 0
        ? 'the file has a header but no rows'
        : `none of the ${total} rows is valid (first: line ${rejected[0]!.line}, ${rejected[0]!.reason})`;
    const errors = rejected.slice(0, MAX_ERRORS).map((r) => ({ row: r.line, reason: r.reason }));
    return { sharingId: null, outcome: 'failed', reason, rows: total, accepted: 0, rejected: rejected.length, errors };
  }
  const attributes: Record<string, Record<string, string>> = {};
  for (const r of rows) attributes[r.phone] ??= r.attributes; // a repeated phone is a duplicate: the first row's attributes
  const rowRejections: RejectedPhone[] = rejected.map((r) => ({ phone: r.phone, reason: r.reason, row: r.line }));
  const summary = await createSharing(deps.intake, {
    accountId: file.accountId,
    campaignId,
    sharingId,
    phoneNumbers: rows.map((r) => r.phone),
    customAttributes: attributes,
    builtInResponses: {},
    rejected: rowRejections,
  });
  // Rows refused here (an opted-out phone) carry no line: the row that gave that phone has it.
  const lineOf = new Map(rows.map((r) => [r.phone, r.line]));
  const errors = summary.rejectedPhones
    .map((r) => ({ row: r.row ?? lineOf.get(r.phone) ?? 0, reason: r.reason }))
    .sort((a, b) => a.row - b.row)
    .slice(0, MAX_ERRORS);
  return {
    sharingId: summary.id,
    outcome: 'processed',
    reason: null,
    rows: total,
    accepted: summary.accepted,
    rejected: summary.rejected,
    errors,
  };
}

/** The file entry's view of an import: its reason without phones (a refusal's field paths name them). */
function outcomeOf(i: CsvImport): FileOutcome {
  return {
    status: i.outcome,
    sharingId: i.sharingId,
    rows: i.rows,
    accepted: i.accepted,
    rejected: i.rejected,
    errors: i.errors ?? [],
    reason: logged(i.reason) ?? null,
  };
}

/** The outcome onto the file's entry; a file deleted meanwhile has no entry to show it on, which ends the matter. */
async function report(deps: Deps, i: CsvImport): Promise<void> {
  try {
    await retried(() => deps.files.recordOutcome({ accountId: i.accountId, fileId: i.fileId, outcome: outcomeOf(i) }));
  } catch (err) {
    if (!(err instanceof AppError && err.kind === 'not_found')) throw err;
  }
}

/** A call to the file service, tried again while it is unavailable. */
async function retried(call: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= COMPLETE_ATTEMPTS || (err instanceof AppError && err.kind !== 'unavailable')) throw err;
      await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
    }
  }
}

/**
 * A reason as logged: a refusal's field paths name a phone (`custom_attributes.<phone>.<name>`),
 * so a log line keeps only what comes before the first dot of each; the stored reason is whole.
 */
function logged(reason: string | null | undefined): string | null | undefined {
  return reason?.replace(/\b(custom_attributes|built_in_responses|phone_numbers)\.\S+/g, '$1.<phone>.<name>');
}

function describe(err: CsvFormatError | AppError): string {
  if (err instanceof CsvFormatError) return err.message;
  const fields = Object.entries(err.fields).map(([k, v]) => `${k} ${v}`);
  return fields.length ? fields.join('; ') : err.message;
}
