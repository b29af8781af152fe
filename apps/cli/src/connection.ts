import { readStackFile } from '@feedback/dev-stack';
import { adminClient } from './admin-client.js';
import { UsageError } from './cli-errors.js';

/**
 * The API to talk to: --url / --admin-token, else FEEDBACK_BASE_URL / FEEDBACK_ADMIN_TOKEN, else
 * the running local stack's .local/stack.json. `unreachableHint` is what to try when the API
 * cannot be reached, which depends on where the URL came from.
 */
export function connection(values: { url?: string; 'admin-token'?: string }) {
  // An empty variable counts as unset, as in a shell's ${VAR:-default}.
  let baseUrl = values.url || process.env.FEEDBACK_BASE_URL || undefined;
  let adminToken = values['admin-token'] || process.env.FEEDBACK_ADMIN_TOKEN || undefined;
  let unreachableHint = values.url ? 'is the gateway up there? (check --url)' : 'is the gateway up there? (check FEEDBACK_BASE_URL)';
  if (!baseUrl || !adminToken) {
    let stack: ReturnType<typeof readStackFile>;
    try {
      stack = readStackFile();
    } catch {
      throw new UsageError(
        'no API to talk to: pass --url and --admin-token, set FEEDBACK_BASE_URL and FEEDBACK_ADMIN_TOKEN, or start the local stack (./stack up)',
      );
    }
    if (!baseUrl) unreachableHint = 'is the stack up? (./stack up)';
    baseUrl ??= stack.base_url;
    adminToken ??= stack.admin_token;
  }
  if (!baseUrl || !adminToken) throw new UsageError('no base URL or admin token: pass --url and --admin-token');
  return { baseUrl, unreachableHint, client: adminClient({ baseUrl, adminToken }) };
}
