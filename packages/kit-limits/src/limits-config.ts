import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** One tier: at most `limit` admissions per `windowSeconds`, per key. */
export interface Tier {
  /** Names the tier in RateLimit / RateLimit-Policy headers; defaults to "t<index>". */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface LimitsConfig {
  /** false: every request is admitted and no headers are sent (on-premise may turn limits off). */
  enabled: boolean;
  tiers: Tier[];
}

/** The default SMS sharing tiers (docs/api.md "Limits"): 20/5 s, 40/25 s, 80/125 s, 160/625 s. */
export const DEFAULT_LIMITS: LimitsConfig = {
  enabled: true,
  tiers: [
    { name: 't0', limit: 20, windowSeconds: 5 },
    { name: 't1', limit: 40, windowSeconds: 25 },
    { name: 't2', limit: 80, windowSeconds: 125 },
    { name: 't3', limit: 160, windowSeconds: 625 },
  ],
};

export class LimitsConfigError extends Error {
  override name = 'LimitsConfigError';
}

// Strict objects: a misspelt key ("windows_seconds") is an error, not a silently default tier.
const tierSchema = z.strictObject({
  // A token-like name keeps the sf-string in the headers free of quotes and escapes.
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'must be 1-32 of a-z, 0-9, "_", "-"')
    .optional(),
  limit: z.number().int().min(1).max(1_000_000_000),
  // A month at most: keys live as long as their window.
  window_seconds: z
    .number()
    .int()
    .min(1)
    .max(31 * 24 * 3600),
});

const fileSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    // Optional only so that `enabled: false` alone turns limits off; enabled needs a tier (below).
    tiers: z.array(tierSchema).max(16).default([]),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.enabled && cfg.tiers.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['tiers'],
        message: 'at least one tier is needed while enabled (set "enabled": false to turn limits off)',
      });
    }
    const seen = new Set<string>();
    cfg.tiers.forEach((t, i) => {
      const name = t.name ?? `t${i}`;
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: ['tiers', i, 'name'], message: `duplicate tier name "${name}"` });
      seen.add(name);
    });
  });

/** What is wrong with a config document: each offending field's path (`["tiers", 1, "window_seconds"]`) and why. */
export interface LimitsConfigIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Validates a parsed config document (the file's, or an API body) without throwing: the same
 * rules whatever the document came from.
 */
export function checkLimitsConfig(doc: unknown): { ok: true; config: LimitsConfig } | { ok: false; issues: LimitsConfigIssue[] } {
  const result = fileSchema.safeParse(doc);
  if (!result.success) {
    return {
      ok: false,
      issues: result.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message })),
    };
  }
  return {
    ok: true,
    config: {
      enabled: result.data.enabled,
      tiers: result.data.tiers.map((t, i) => ({ name: t.name ?? `t${i}`, limit: t.limit, windowSeconds: t.window_seconds })),
    },
  };
}

/**
 * Validates a parsed config document (`{"enabled": true, "tiers": [{"limit": 20, "window_seconds": 5}]}`).
 * Errors name every offending field, e.g. `tiers.1.window_seconds: ...`.
 */
export function parseLimitsConfig(doc: unknown, source = 'limits config'): LimitsConfig {
  const checked = checkLimitsConfig(doc);
  if (!checked.ok) {
    const lines = checked.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new LimitsConfigError(`${source} is invalid:\n${lines.join('\n')}`);
  }
  return checked.config;
}

/** The document form of a config (the file's keys, every tier named): what the store keeps and the admin API shows. */
export function limitsConfigDocument(config: LimitsConfig): {
  enabled: boolean;
  tiers: { name: string; limit: number; window_seconds: number }[];
} {
  return { enabled: config.enabled, tiers: config.tiers.map((t) => ({ name: t.name, limit: t.limit, window_seconds: t.windowSeconds })) };
}

/**
 * The file's schema as JSON Schema (draft-07, the request side: defaults not required), so an API
 * that takes the same document documents and pre-checks it from this one definition; the
 * cross-field rules (a tier while enabled, unique names) are checkLimitsConfig's.
 */
export function limitsConfigJsonSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(fileSchema, { io: 'input', target: 'draft-7' });
  return schema;
}

/** Parses file text as YAML for .yaml/.yml paths, JSON otherwise, then validates it. */
export function parseLimitsFile(text: string, path: string): LimitsConfig {
  let doc: unknown;
  try {
    doc = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    throw new LimitsConfigError(`${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(err as Error).message}`);
  }
  return parseLimitsConfig(doc, path);
}
