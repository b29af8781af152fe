import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** feedbackctl from source, as `./stack ctl` runs it; rejects (with code, stdout, stderr) on a non-zero exit. */
export const cli = (...args: string[]) => cliWith({}, ...args);

export const cliWith = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, ...env },
  });

/** The failure of a command that must fail. */
export const failure = (p: Promise<unknown>): Promise<CliResult> =>
  p.then(
    () => {
      throw new Error('expected feedbackctl to fail');
    },
    (err: CliResult) => err,
  );

/** An API error on stderr: the line saying what failed, then the error body as JSON. */
export function apiError(stderr: string): { line: string; body: Record<string, unknown> } {
  const [line = '', ...rest] = stderr.split('\n');
  return { line, body: JSON.parse(rest.join('\n')) as Record<string, unknown> };
}
