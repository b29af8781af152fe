import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';
import { readJsonFile } from './file-input.js';

const account = { value: 'ID', help: "one account's own limits; without it, the deployment's" };

/**
 * `--tiers 20/5,500/3600` (LIMIT/SECONDS per tier, named t0, t1, ...) or `--tiers off`, the short
 * form of the limits file's document; anything malformed is refused here, the rest by the API.
 */
export function tiersBody(spec: string): Record<string, unknown> {
  if (spec.trim() === 'off') return { enabled: false };
  const tiers = spec.split(',').map((part) => {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(part);
    if (!m) throw new UsageError(`--tiers: "${part}" is not LIMIT/SECONDS (e.g. --tiers 20/5,500/3600, or --tiers off)`);
    return { limit: Number(m[1]), window_seconds: Number(m[2]) };
  });
  return { tiers };
}

export const limitsCommands: Command[] = [
  {
    group: 'limits',
    action: 'get',
    summary:
      "show the SMS sharing limits in force and where they come from (stored, file, default); with --account, the account's and how full each tier is",
    options: { account },
    example: 'feedbackctl limits get --account ACCOUNT_ID',
    run: (c) => c.client.getSmsLimits(c.opt('account')),
  },
  {
    group: 'limits',
    action: 'set',
    summary:
      'set the SMS sharing limits, in force on every gateway within 5 s (docs/api.md "SMS limits as a live setting"); prints what is in force',
    options: {
      account,
      tiers: { value: 'LIMIT/SECONDS,...|off', help: 'the tiers, e.g. 20/5,500/3600; off admits every request' },
      file: { value: 'limits.json|-', help: 'the document of SMS_LIMITS_FILE, in JSON (named tiers); - reads stdin' },
    },
    example: 'feedbackctl limits set --account ACCOUNT_ID --tiers 2/60',
    run: (c) => {
      const tiers = c.opt('tiers');
      const file = c.opt('file');
      if ((tiers === undefined) === (file === undefined)) throw new UsageError('limits set takes one of --tiers and --file');
      return c.client.putSmsLimits(c.opt('account'), tiers !== undefined ? tiersBody(tiers) : readJsonFile(file!));
    },
  },
  {
    group: 'limits',
    action: 'reset',
    summary: "remove stored limits: an account follows the deployment's again; the deployment, SMS_LIMITS_FILE or the defaults",
    options: { account },
    example: 'feedbackctl limits reset --account ACCOUNT_ID',
    run: (c) => c.client.deleteSmsLimits(c.opt('account')),
  },
];
