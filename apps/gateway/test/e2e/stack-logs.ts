import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '@feedback/dev-stack';

/** Where infra/lib.sh writes every process's output: `<process>.log`, one per app replica and server. */
export const STACK_LOG_DIR = repoPath('.local/logs');

export interface LogLine {
  file: string;
  line: number;
  text: string;
}

/** Every line of every log of the running stack (apps, Kafka, MongoDB, S3, Redis), the previous run's (`.log.prev`) too. */
export function stackLogLines(filter: (file: string) => boolean = () => true): LogLine[] {
  const out: LogLine[] = [];
  for (const file of readdirSync(STACK_LOG_DIR).filter((f) => /\.log(\.prev)?$/.test(f) && filter(f))) {
    const lines = readFileSync(join(STACK_LOG_DIR, file), 'utf8').split('\n');
    lines.forEach((text, i) => text && out.push({ file, line: i + 1, text }));
  }
  return out;
}

/**
 * Apps write their logs through a buffer flushed every 250 ms (kit-core stdoutDestination), and
 * Kafka consumers act after the request answered: a little more than that is waited for.
 */
export const settle = (ms = 1_000) => new Promise((r) => setTimeout(r, ms));
