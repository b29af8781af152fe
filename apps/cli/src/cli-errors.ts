import { AdminApiError, ApiUnreachableError } from './admin-client.js';

/** The command line was wrong (exit 2); `usage` is the hint printed under the message. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** What to print on stderr for a failure, and the exit code: 1 for API and network errors, 2 for usage errors. */
export function describeFailure(err: unknown, unreachableHint: string): { text: string; exitCode: number } {
  if (err instanceof UsageError) return { text: err.usage ? `${err.message}\n${err.usage}` : err.message, exitCode: EXIT_USAGE };
  if (err instanceof ApiUnreachableError) return { text: `${err.message}: ${unreachableHint}`, exitCode: EXIT_FAILED };
  if (err instanceof AdminApiError) return { text: apiErrorText(err), exitCode: EXIT_FAILED };
  return { text: err instanceof Error ? err.message : String(err), exitCode: EXIT_FAILED };
}

/**
 * One line saying what failed (request, status, the spec's code and error_message), then the
 * error body as JSON, whose `errors` names the field or id at fault.
 */
function apiErrorText(err: AdminApiError): string {
  const body = err.body as { code?: unknown; error_message?: unknown } | null;
  const what = `${err.request || 'the API call'} failed: ${err.status}${err.statusText ? ` ${err.statusText}` : ''}`;
  if (body && typeof body === 'object' && typeof body.code === 'number') {
    return `${what}, code ${body.code}: ${String(body.error_message)}\n${JSON.stringify(body, null, 2)}`;
  }
  const text = typeof err.body === 'string' ? err.body.slice(0, 500) : JSON.stringify(err.body);
  return `${what}\n${text}`;
}
