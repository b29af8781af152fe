/** What happened to recipients, each counted once per recipient (its first message); segments count every message. */
export interface ReportTotals {
  recipients: number;
  sent: number;
  delivered: number;
  failed: number;
  optedOut: number;
  clicked: number;
  answered: number;
  segments: number;
}

export const zeroTotals = (): ReportTotals => ({
  recipients: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  optedOut: 0,
  clicked: 0,
  answered: 0,
  segments: 0,
});
