import type { SurveyDeps } from '../domain/ports.js';
import { republishAnswered } from '../domain/survey-page.use-cases.js';

/**
 * Retries survey.answered events whose publish failed at submit time. Several replicas may
 * retry the same response; the event id is the same, so consumers drop the repeat.
 */
export function startOutboxJob(deps: SurveyDeps, intervalMs: number) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = republishAnswered(deps).catch((err: unknown) => deps.logger.warn({ err }, 'survey.answered outbox run failed'));
  }, intervalMs);
  timer.unref();
  return {
    name: 'outbox-job',
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
