import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type AppName = 'flow' | 'file' | 'shortener' | 'survey' | 'messaging' | 'webhooks' | 'gateway';

/** One JSON log line of an app (pino): its level (30 info, 40 warn, 50 error, 60 fatal) and message. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface AppProcess {
  app: AppName;
  child: ChildProcess;
  /** Its log lines so far (stdout, JSON), in order. */
  lines(): LogLine[];
  /** Lines at error or fatal, and anything on stderr (a crash, a Node warning). */
  problems(): string[];
  /** The last of what it wrote, for failure messages. */
  output(): string;
  /** Null while it runs. */
  exitCode(): number | null;
  /** Resolves once `check` answers true; throws if the process exits first or `timeoutMs` passes. */
  waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs?: number): Promise<void>;
  /** Kills it (SIGKILL unless told) and waits for the exit; a no-op once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * A private process of an app from source, as infra/apps.sh starts it (`node --import tsx
 * src/main.ts` in apps/<app>), with only the given environment (plus PATH and HOME): the caller
 * passes its own MONGO_DB, topics, groups and ports (every listener, METRICS_PORT included),
 * so it shares nothing with the running stack but the servers. `script` runs another file of
 * the app the same way (a test fixture), with its arguments.
 */
export function startAppProcess(app: AppName, env: Record<string, string>, script: string[] = ['src/main.ts']): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...script], {
    cwd: `${REPO_ROOT}apps/${app}`,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const problems: string[] = [];
  let out = '';
  let partial = '';
  const keep = (text: string) => void (out = (out + text).slice(-20_000));
  child.stdout!.on('data', (b: Buffer) => {
    keep(b.toString());
    const parts = (partial + b.toString()).split('\n');
    partial = parts.pop()!;
    for (const text of parts) {
      if (!text.trim()) continue;
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        problems.push(`not a log line: ${text}`);
        continue;
      }
      lines.push(line);
      if (line.level >= 50) problems.push(text);
    }
  });
  child.stderr!.on('data', (b: Buffer) => {
    keep(b.toString());
    problems.push(`stderr: ${b.toString()}`);
  });
  const exited = once(child, 'exit');
  const exitCode = () => child.exitCode ?? (child.signalCode !== null ? -1 : null);
  return {
    app,
    child,
    lines: () => lines,
    problems: () => problems,
    output: () => out,
    exitCode,
    async waitUntil(what, check, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exitCode() !== null) throw new Error(`${app} (pid ${child.pid}) exited (${exitCode()}) before ${what}:\n${out}`);
        if (await Promise.resolve(check()).catch(() => false)) return;
        if (Date.now() > deadline) throw new Error(`${app} (pid ${child.pid}): no ${what} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async kill(signal = 'SIGKILL') {
      if (exitCode() !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
