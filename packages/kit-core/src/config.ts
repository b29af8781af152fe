import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { attributeNameProblem } from './customer-attributes.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates configuration from environment variables once, at start-up.
 * A bad or missing variable throws a ConfigError naming every offending variable,
 * so a misconfigured deployment fails fast instead of at first use.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  throw configError(result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`));
}

const configError = (lines: string[]) => new ConfigError(`invalid configuration:\n${lines.join('\n')}`);

/**
 * Checks of variables that go together, after loadConfig (a CA file only with TLS on, a username
 * with a SASL mechanism...), and the files they name, read once: every problem is collected, then
 * thrown as one ConfigError in loadConfig's format, naming each variable.
 */
export function configChecks(readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')) {
  const lines: string[] = [];
  const problem = (key: string, message: string) => void lines.push(`  ${key}: ${message}`);
  /** A file's text, or undefined with a problem naming the variable. */
  const file = (key: string, path: string): string | undefined => {
    try {
      return readFile(path);
    } catch (err) {
      problem(key, `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      return undefined;
    }
  };
  /** A PEM file's text: it must hold `-----BEGIN <label>-----` (label a regex source, default `kind`). */
  const pem = (key: string, path: string, kind: string, label = kind): string | undefined => {
    const text = file(key, path);
    if (text !== undefined && !new RegExp(`-----BEGIN ${label}-----`).test(text)) {
      problem(key, `${path} holds no PEM ${kind.toLowerCase()}`);
      return undefined;
    }
    return text;
  };
  return {
    problem,
    file,
    pem,
    /** Throws the collected problems, if any. */
    throwIfAny() {
      if (lines.length > 0) throw configError(lines);
    },
  };
}

/** Helpers for the common variable kinds (all env values arrive as strings). */
export const env = {
  string: (fallback?: string) => (fallback === undefined ? z.string().min(1) : z.string().min(1).default(fallback)),
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  url: (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback)),
  list: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** An optional string; empty counts as unset (a chart or compose file may render `KEY=`). */
  optional: () => z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** A 256-bit key: 32 bytes in base64 or base64url (`openssl rand -base64 32`), as its bytes. */
  key32: () =>
    z
      .string()
      // Buffer.from skips characters that are not base64: the exact shape of 32 bytes first.
      .regex(/^[A-Za-z0-9+/_-]{43}=?$/, 'must be 32 bytes in base64 (openssl rand -base64 32)')
      .transform((v) => Buffer.from(v, 'base64')),
  /** An optional key32; empty counts as unset (a chart or compose file may render `KEY=`). */
  optionalKey32: () => z.preprocess((v) => (v === '' ? undefined : v), env.key32().optional()),
  /** Comma-separated 256-bit keys (a rotated key's predecessors), each as key32; empty: none. */
  key32List: () =>
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(env.key32())),
  /**
   * PERSONAL_DATA_KEY (required) and PERSONAL_DATA_PREVIOUS_KEYS: the keys of kit-core's
   * PersonalDataProtector (TCKN and other sensitive values hashed and sealed at rest).
   */
  personalDataKeys: () => ({ PERSONAL_DATA_KEY: env.key32(), PERSONAL_DATA_PREVIOUS_KEYS: env.key32List() }),
  /**
   * SENSITIVE_CUSTOMER_ATTRIBUTES: comma-separated custom attribute names kept only protected
   * (kit-core `sensitiveNames` adds the TCKN and compares without case). Each must be a name the
   * attribute rule (customer-attributes.ts) accepts, so the list names attributes a request can send.
   */
  sensitiveAttributes: () =>
    env.list('tckn').superRefine((names, ctx) => {
      for (const n of names) {
        const problem = attributeNameProblem(n);
        if (problem) ctx.addIssue({ code: 'custom', message: `must be attribute names: "${n}": ${problem}` });
      }
    }),
};
