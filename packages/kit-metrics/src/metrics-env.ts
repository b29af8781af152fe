import { env } from '@feedback/kit-core/runtime';

/**
 * The metrics listener's variables, for an app's env.ts: METRICS_PORT (each app's local default
 * from infra/ports.json; the chart gives every pod the same port) and METRICS_HOST. The listener
 * is its own port so that it is never public: the chart's NetworkPolicy opens it to the
 * monitoring namespace only.
 */
export const metricsEnv = (defaultPort: number) => ({
  METRICS_HOST: env.string('0.0.0.0'),
  METRICS_PORT: env.port(defaultPort),
});
