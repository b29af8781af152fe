import { errors } from '@feedback/kit-core';

/**
 * What a workflow made of a file of a bound name (docs/api.md "Workflows on files"): pending from
 * the upload until the workflow reports, then processed or failed. Kept on the file's entry.
 */
export interface FileProcessing {
  status: 'pending' | 'processed' | 'failed';
  /** The sharing the file made; null when none. */
  sharingId: string | null;
  /** Data rows read (the header excluded). */
  rows: number;
  accepted: number;
  rejected: number;
  /** The first MAX_PROCESSING_ERRORS refused rows: the line (the header is 1) and why. */
  errors: Array<{ row: number; reason: string }>;
  /** Why the whole file was refused; null otherwise. */
  reason: string | null;
  processedAt: Date | null;
}

export type ProcessingReport = Omit<FileProcessing, 'processedAt'>;

export const MAX_PROCESSING_ERRORS = 100;
const MAX_REASON_LENGTH = 500;

export const pendingProcessing = (): FileProcessing => ({
  status: 'pending',
  sharingId: null,
  rows: 0,
  accepted: 0,
  rejected: 0,
  errors: [],
  reason: null,
  processedAt: null,
});

/** A workflow's report as stored: a final status, counts that are counts, at most 100 errors, reasons cut to length. */
export function finalProcessing(report: ProcessingReport, at: Date): FileProcessing {
  if (report.status !== 'processed' && report.status !== 'failed')
    throw errors.invalid({ 'processing.status': 'must be processed or failed' });
  for (const key of ['rows', 'accepted', 'rejected'] as const) {
    if (!Number.isInteger(report[key]) || report[key] < 0) throw errors.invalid({ [`processing.${key}`]: 'must be a whole number' });
  }
  const cut = (s: string) => (s.length > MAX_REASON_LENGTH ? `${s.slice(0, MAX_REASON_LENGTH - 1)}…` : s);
  return {
    status: report.status,
    sharingId: report.sharingId || null,
    rows: report.rows,
    accepted: report.accepted,
    rejected: report.rejected,
    errors: report.errors.slice(0, MAX_PROCESSING_ERRORS).map((e) => ({ row: e.row, reason: cut(e.reason) })),
    reason: report.reason ? cut(report.reason) : null,
    processedAt: at,
  };
}
