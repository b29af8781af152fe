/**
 * How long personal data is kept (docs/api.md "Retention"): per kind, a deployment default (an
 * env variable of the service that stores the kind) and an account's own value, set by an
 * operator through the gateway and carried to the services by the `account.retention` topic.
 * Days; 0 means kept for ever. Plain rules here; the stores and the timer are the services'.
 */
export const RETENTION_KINDS = ['messages', 'responses', 'webhook_deliveries'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** The longest retention an account may set (a century: "for ever" is 0). */
export const MAX_RETENTION_DAYS = 36_500;

/** An account's setting: a kind left out follows the deployment default. */
export interface AccountRetention {
  accountId: string;
  days: Partial<Record<RetentionKind, number>>;
  /** Milliseconds since the epoch of the change: the highest one wins. */
  version: number;
}

export interface EffectiveRetention {
  days: number;
  source: 'account' | 'default';
}

export function effectiveRetention(setting: AccountRetention | null, kind: RetentionKind, defaultDays: number): EffectiveRetention {
  const own = setting?.days[kind];
  return own === undefined ? { days: defaultDays, source: 'default' } : { days: own, source: 'account' };
}

const DAY_MS = 86_400_000;

/** What a sweep deletes: documents dated before `before`, of one account or of every account but `exceptAccounts`. */
export interface RetentionPass {
  before: Date;
  accountId?: string;
  exceptAccounts?: string[];
}

/**
 * The passes that enforce one kind: the default's over every account whose own value keeps data
 * longer (or for ever), and one per account whose value is shorter or longer than the default.
 * An account keeping less than the default needs no exclusion from the default's pass: what the
 * default deletes is older than its own cutoff too.
 */
export function retentionPasses(settings: AccountRetention[], kind: RetentionKind, defaultDays: number, now: Date): RetentionPass[] {
  const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const own = settings.flatMap((s) => (s.days[kind] === undefined ? [] : [{ accountId: s.accountId, days: s.days[kind] }]));
  const passes: RetentionPass[] = [];
  for (const o of own) if (o.days > 0 && o.days !== defaultDays) passes.push({ accountId: o.accountId, before: cutoff(o.days) });
  if (defaultDays > 0) {
    const keepLonger = own.filter((o) => o.days === 0 || o.days > defaultDays).map((o) => o.accountId);
    passes.push({ before: cutoff(defaultDays), ...(keepLonger.length > 0 && { exceptAccounts: keepLonger }) });
  }
  return passes;
}

/** One place documents are deleted from: at most `limit` of them matching the pass, answering how many went. */
export interface RetentionTarget {
  name: string;
  deleteBatch(pass: RetentionPass, limit: number): Promise<number>;
}

export interface SweepLimits {
  /** The sweep's number: each sweep starts maxBatches passes further on, so passes beyond maxBatches get their turn in later sweeps. */
  offset?: number;
  /** Documents per delete. */
  batchSize: number;
  /** Deletes per sweep, over all passes: the rest waits for the next sweep. */
  maxBatches: number;
  /** Between two deletes, so the database serves other work meanwhile. */
  pause: () => Promise<void>;
}

/**
 * Deletes in bounded batches, round robin over the passes: each pass with work left gets one
 * batch per round, so one account's large backlog takes turns with the others' instead of
 * holding the sweep. Answers the documents deleted per target.
 */
export async function drainPasses(
  work: { target: RetentionTarget; pass: RetentionPass }[],
  limits: SweepLimits,
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  const start = work.length > 0 ? ((limits.offset ?? 0) * limits.maxBatches) % work.length : 0;
  let open = [...work.slice(start), ...work.slice(0, start)];
  let batches = 0;
  while (open.length > 0 && batches < limits.maxBatches) {
    const next: typeof work = [];
    for (const w of open) {
      if (batches >= limits.maxBatches) break;
      if (batches > 0) await limits.pause();
      const n = await w.target.deleteBatch(w.pass, limits.batchSize);
      batches++;
      deleted[w.target.name] = (deleted[w.target.name] ?? 0) + n;
      if (n >= limits.batchSize) next.push(w);
    }
    open = next;
  }
  return deleted;
}

/** Where a service keeps the accounts' settings it consumed. */
export interface RetentionSettings {
  list(): Promise<AccountRetention[]>;
  /** Keeps `s` unless a setting with a higher version is already there. */
  apply(s: AccountRetention): Promise<void>;
}

/** One sweep of a service: for each kind it stores, its targets under the passes of its settings. */
export async function sweepRetention(o: {
  settings: RetentionSettings;
  kinds: { kind: RetentionKind; defaultDays: number; targets: RetentionTarget[] }[];
  now: Date;
  limits: SweepLimits;
  /** Work outside the accounts' settings (expired survey links): pass and target. */
  extra?: { target: RetentionTarget; pass: RetentionPass }[];
}): Promise<Record<string, number>> {
  const settings = await o.settings.list();
  const work = o.kinds.flatMap((k) =>
    retentionPasses(settings, k.kind, k.defaultDays, o.now).flatMap((pass) => k.targets.map((target) => ({ target, pass }))),
  );
  return drainPasses([...work, ...(o.extra ?? [])], o.limits);
}
