import { startPeriodicJob } from '@feedback/kit-stores';
import type { SurveyDeps } from '../domain/ports.js';
import { republishAnswered } from '../domain/survey-page.use-cases.js';

/**
 * Retries survey.answered events whose publish failed at submit time, one run at a time (a slow
 * run delays the next instead of overlapping it). Several replicas may retry the same response;
 * the event id is the same, so consumers drop the repeat.
 */
export function startOutboxJob(deps: SurveyDeps, intervalMs: number) {
  return startPeriodicJob({
    name: 'outbox-job',
    everyMs: intervalMs,
    runAtStart: false,
    logger: deps.logger,
    run: async () => void (await republishAnswered(deps)),
  });
}
