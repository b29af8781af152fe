import { countScore, emptyTally, npsScore, type NpsTally } from './nps.js';
import type { SurveyDeps } from './ports.js';
import { selectResponses, type ResponseFilterInput } from './response-filters.js';

export interface NpsQuestionSummary extends NpsTally {
  questionKey: string;
  score: number | null;
}

/**
 * The NPS of every nps question of one flow (docs/flows.md: style `nps`, 0-10), over the responses
 * the filters select, in the flow's question order. Streams the answers (constant memory however
 * many responses); a flow without nps questions answers an empty list.
 */
export async function npsSummary(
  deps: Pick<SurveyDeps, 'responses' | 'flows' | 'channels' | 'customers'>,
  q: Omit<ResponseFilterInput, 'customerExternalId'>,
): Promise<NpsQuestionSummary[]> {
  const { filter, flow } = await selectResponses(deps, { ...q, customerExternalId: '' }, { flowRequired: true });
  const keys = flow!.questions.filter((question) => question.style === 'nps').map((question) => question.key);
  const tallies = new Map(keys.map((k) => [k, emptyTally()]));
  // No filter (a channel of another flow) selects no response: every tally stays empty.
  if (filter && keys.length > 0) {
    for await (const answers of deps.responses.answersOf(filter)) {
      for (const a of answers) {
        const tally = tallies.get(a.questionKey);
        if (tally && a.number !== undefined) countScore(tally, a.number);
      }
    }
  }
  return keys.map((questionKey) => {
    const t = tallies.get(questionKey)!;
    return { questionKey, ...t, score: npsScore(t) };
  });
}
