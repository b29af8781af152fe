import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStackFile, type StackFile } from '@feedback/dev-stack';

/*
 * What the fault tests do to the running stack: find a server's process from its pid file, kill
 * it, and start it again with the project's own scripts (infra/apps.sh up, infra/infra.sh up),
 * exactly as an operator would.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const LOCAL_DIR = process.env.FEEDBACK_LOCAL_DIR ?? join(REPO_ROOT, '.local');
export const APPS = ['flow', 'file', 'shortener', 'survey', 'messaging', 'gateway'] as const;
export const SERVERS = ['redis', 'mongo', 's3', 'kafka'] as const;
export type App = (typeof APPS)[number];
/** A server, or one process of an app when it runs several (`gateway-2`: .local/run's pid file names). */
export type Target = App | (typeof SERVERS)[number] | `${App}-${number}`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The port of a URL, a host:port, or the first address of an `ipv4:a:p1,b:p2` gRPC target. */
const portOf = (url: string) => {
  const first = url.replace(/^ipv4:/, '').split(',')[0]!;
  return Number(new URL(first.includes('://') ? first : `tcp://${first}`).port);
};

/**
 * The infra scripts start a killed server on the ports of infra/ports.json unless the environment
 * overrides them: those must be the ports of the stack this test talks to, or a restart would
 * bring up a second stack (on the shared default ports) instead of healing this one.
 */
export function stackUnderTest(): StackFile {
  const stack = readStackFile();
  const defaults = JSON.parse(readFileSync(join(REPO_ROOT, 'infra/ports.json'), 'utf8')) as Record<string, number>;
  const script = (name: string) => Number(process.env[name] ?? defaults[name]);
  const expected: Record<string, number> = {
    API_PORT: portOf(stack.base_url ?? ''),
    LINK_PORT: portOf(stack.shortener_url ?? ''),
    MONGO_PORT: portOf(stack.mongo_url),
    KAFKA_PORT: portOf(stack.kafka_brokers[0]!),
    S3_PORT: portOf(stack.s3.endpoint),
    REDIS_PORT: portOf(stack.redis_url),
    FLOW_GRPC_PORT: portOf(stack.grpc.flow),
    FILE_GRPC_PORT: portOf(stack.grpc.file),
    SHORTENER_GRPC_PORT: portOf(stack.grpc.shortener),
    SURVEY_GRPC_PORT: portOf(stack.grpc.survey),
    MESSAGING_GRPC_PORT: portOf(stack.grpc.messaging),
  };
  const wrong = Object.entries(expected).filter(([name, port]) => script(name) !== port);
  if (wrong.length > 0) {
    throw new Error(
      `the infra scripts would restart servers on other ports than the stack's (${wrong.map(([n, p]) => `${n}=${p}, scripts: ${script(n)}`).join('; ')}): ` +
        'run the fault tests with the environment the stack was started with',
    );
  }
  if (!stack.base_url || !stack.shortener_url || !stack.admin_token) throw new Error('stack file has no gateway: is the stack up?');
  return stack;
}

/** The kernel's start time of a live (not zombie) process, as infra/lib.sh's proc_start_time. */
function startTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
}

/** The PID recorded in .local/run/NAME.pid when that very process still runs. */
export function pidOf(name: Target): number | undefined {
  let pid: number, start: string | undefined;
  try {
    const [p, s] = readFileSync(join(LOCAL_DIR, 'run', `${name}.pid`), 'utf8')
      .trim()
      .split(/\s+/);
    [pid, start] = [Number(p), s];
  } catch {
    return undefined;
  }
  const now = startTime(pid);
  return now !== undefined && (!start || now === start) ? pid : undefined;
}

/** Sends `signal` to the server and waits (bounded) until its process is gone. */
export async function signal(name: Target, sig: 'SIGKILL' | 'SIGTERM', waitMs = 40_000): Promise<void> {
  const pid = pidOf(name);
  if (pid === undefined) throw new Error(`${name} is not running (no live process in .local/run/${name}.pid)`);
  const start = startTime(pid);
  process.kill(pid, sig);
  for (const deadline = Date.now() + waitMs; startTime(pid) === start; await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`${name} (pid ${pid}) still runs ${waitMs} ms after ${sig}`);
  }
}

/** Starts what is not running with the project's own script; resolves with its output. */
export function restart(name: Target, timeoutMs = 180_000): Promise<string> {
  const script = (SERVERS as readonly string[]).includes(name) ? 'infra/infra.sh' : 'infra/apps.sh';
  return runScript(script, ['up'], timeoutMs);
  // `up` starts every server that is not running and waits for each: for a killed one that is a
  // fresh start, for the others a readiness check.
}

/** Runs one of the project's scripts (infra/apps.sh ARGS...) with `env` added; resolves with its output. */
export function runScript(script: string, args: string[], timeoutMs = 180_000, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { cwd: REPO_ROOT, timeout: timeoutMs, env: { ...process.env, ...env } };
    execFile('bash', [join(REPO_ROOT, script), ...args], options, (err, stdout, stderr) => {
      const out = `${stdout}${stderr}`;
      if (err) reject(new Error(`${script} ${args.join(' ')} failed: ${err.message}\n${out}`));
      else resolve(out);
    });
  });
}

export const ERROR_KEYS = ['code', 'data', 'error_message', 'errors'];

/**
 * Whether an error answer is in the error shape (docs/errors.md): JSON with exactly the error
 * body's keys, and a 5xx only as 503 (a dependency away, retry later). Returns what is wrong, or
 * undefined.
 */
export function errorShapeProblem(status: number, text: string): string | undefined {
  if (status >= 500 && status !== 503) return `${status} (only 503 may signal an outage)`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} with a body that is not JSON: ${text.slice(0, 120)}`;
  }
  const keys = body && typeof body === 'object' ? Object.keys(body).sort() : [];
  if (keys.join() !== ERROR_KEYS.join()) return `${status} with keys [${keys.join()}]: ${text.slice(0, 160)}`;
  return undefined;
}
