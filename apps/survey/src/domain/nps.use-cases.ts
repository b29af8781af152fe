import { attributeNameProblem, errors, isTimeZone, periodStart, sensitiveNames } from '@feedback/kit-core';
import { countScore, emptyTally, npsScore, type NpsTally } from './nps.js';
import type { SurveyDeps } from './ports.js';
import { selectResponses, type ResponseFilterInput } from './response-filters.js';

/** One period's tallies (key: its start) or one group_by value's (key: the value, '' without it). */
export interface NpsSlice extends NpsTally {
  key: string;
  score: number | null;
}

export interface NpsQuestionSummary extends NpsTally {
  questionKey: string;
  score: number | null;
  /** With an interval: the periods with answers, oldest first. */
  series?: NpsSlice[];
  /** With group_by: the values, most answers first. */
  groups?: NpsSlice[];
}

export interface NpsQuery extends Omit<ResponseFilterInput, 'customerExternalId'> {
  /** 'day' or 'week'; '' or absent: no series. */
  interval?: string;
  /** IANA; '' or absent: UTC. */
  timeZone?: string;
  /** A custom attribute name; '' or absent: no groups. */
  groupBy?: string;
}

/** Distinct group_by values one summary holds at most: an order id is no group, and memory stays bounded. */
export const MAX_NPS_GROUPS = 1_000;

interface Breakdown {
  interval?: 'day' | 'week';
  timeZone: string;
  groupBy?: string;
}

/** interval, time_zone and group_by checked, every problem at once under its field. */
function checkBreakdown(q: NpsQuery, sensitive: ReadonlySet<string>): Breakdown {
  const problems: Record<string, string> = {};
  const out: Breakdown = { timeZone: q.timeZone || 'UTC' };
  if (q.interval === 'day' || q.interval === 'week') out.interval = q.interval;
  else if (q.interval) problems.interval = 'must be day or week';
  if (!isTimeZone(out.timeZone)) problems.time_zone = 'must be an IANA time zone, e.g. Europe/Istanbul';
  if (q.groupBy) {
    const problem = attributeNameProblem(q.groupBy);
    if (problem) problems.group_by = problem;
    // Never kept with a response (the customer keeps only its hash), so there is nothing to group by.
    else if (sensitive.has(q.groupBy.toLowerCase())) problems.group_by = 'is a sensitive attribute, which responses do not keep';
    else out.groupBy = q.groupBy;
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return out;
}

interface Tallies {
  all: NpsTally;
  series: Map<string, NpsTally>;
  groups: Map<string, NpsTally>;
}

const slot = (m: Map<string, NpsTally>, key: string) => m.get(key) ?? m.set(key, emptyTally()).get(key)!;
const slices = (m: Map<string, NpsTally>): NpsSlice[] => [...m].map(([key, t]) => ({ key, ...t, score: npsScore(t) }));

/**
 * The NPS of every nps question of one flow (docs/flows.md: style `nps`, 0-10), over the responses
 * the filters select, in the flow's question order; with an interval, per day or week in the
 * time zone too (kit-core periodStart), and with group_by, per value of that custom attribute.
 * Streams the answers (memory: the tallies, not the responses); a flow without nps questions
 * answers an empty list.
 */
export async function npsSummary(
  deps: Pick<SurveyDeps, 'responses' | 'flows' | 'channels' | 'customers'> & Partial<Pick<SurveyDeps, 'config'>>,
  q: NpsQuery,
): Promise<NpsQuestionSummary[]> {
  const breakdown = checkBreakdown(q, sensitiveNames(deps.config?.sensitiveAttributes));
  const { filter, flow } = await selectResponses(deps, { ...q, customerExternalId: '' }, { flowRequired: true });
  const keys = flow!.questions.filter((question) => question.style === 'nps').map((question) => question.key);
  const tallies = new Map<string, Tallies>(keys.map((k) => [k, { all: emptyTally(), series: new Map(), groups: new Map() }]));
  const values = new Set<string>();
  // No filter (a channel of another flow) selects no response: every tally stays empty.
  if (filter && keys.length > 0) {
    for await (const r of deps.responses.answersOf(filter)) {
      const period = breakdown.interval ? periodStart(r.answeredAt, breakdown.interval, breakdown.timeZone) : '';
      const value = breakdown.groupBy ? (r.customAttributes?.[breakdown.groupBy] ?? '') : '';
      if (breakdown.groupBy && !values.has(value)) {
        if (values.size >= MAX_NPS_GROUPS) throw errors.invalid({ group_by: `has more than ${MAX_NPS_GROUPS} values in these responses` });
        values.add(value);
      }
      for (const a of r.answers) {
        const t = tallies.get(a.questionKey);
        if (!t || a.number === undefined) continue;
        countScore(t.all, a.number);
        if (breakdown.interval) countScore(slot(t.series, period), a.number);
        if (breakdown.groupBy) countScore(slot(t.groups, value), a.number);
      }
    }
  }
  return keys.map((questionKey) => {
    const t = tallies.get(questionKey)!;
    return {
      questionKey,
      ...t.all,
      score: npsScore(t.all),
      // ISO starts in one zone: their order is time order but for the hour of a change of offset.
      ...(breakdown.interval ? { series: slices(t.series).sort((a, b) => Date.parse(a.key) - Date.parse(b.key)) } : {}),
      ...(breakdown.groupBy ? { groups: slices(t.groups).sort((a, b) => b.total - a.total || (a.key < b.key ? -1 : 1)) } : {}),
    };
  });
}
