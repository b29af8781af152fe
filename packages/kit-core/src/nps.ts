/** The Net Promoter Score of one nps question (0-10): who promotes (9-10), who is passive (7-8), who detracts (0-6). */
export interface NpsTally {
  promoters: number;
  passives: number;
  detractors: number;
  total: number;
}

export const emptyTally = (): NpsTally => ({ promoters: 0, passives: 0, detractors: 0, total: 0 });

/** Counts one answer; a value off the 0-10 scale (none is stored: answers are validated) is not counted. */
export function countScore(t: NpsTally, n: number): void {
  if (!Number.isInteger(n) || n < 0 || n > 10) return;
  if (n >= 9) t.promoters++;
  else if (n >= 7) t.passives++;
  else t.detractors++;
  t.total++;
}

/**
 * % promoters - % detractors, rounded to an integer (halves away from zero, so that a score and
 * its mirror image round alike: 12.5 → 13, -12.5 → -13); null without answers.
 */
export function npsScore(t: NpsTally): number | null {
  if (t.total === 0) return null;
  const exact = (100 * (t.promoters - t.detractors)) / t.total;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}
