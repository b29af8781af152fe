import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The running local stack, as `./stack up` / `./stack test` write it to .local/stack.json. */
export interface StackFile {
  base_url?: string;
  shortener_url?: string;
  admin_token?: string;
  mongo_url: string;
  kafka_brokers: string[];
  s3: { endpoint: string; access_key: string; secret_key: string; region: string };
  redis_url: string;
  /** The services' gRPC addresses (host:port) by name. */
  grpc: Record<'flow' | 'file' | 'shortener' | 'survey' | 'messaging', string>;
  /** Each app's metrics listener (http://host:port; GET /metrics), written with the apps. */
  metrics?: Record<'gateway' | 'flow' | 'file' | 'shortener' | 'survey' | 'messaging', string>;
}

/** Finds .local/stack.json from the current folder upwards (or FEEDBACK_STACK_FILE). */
export function readStackFile(from = process.cwd()): StackFile {
  const explicit = process.env.FEEDBACK_STACK_FILE;
  if (explicit) return JSON.parse(readFileSync(explicit, 'utf8')) as StackFile;
  let dir = resolve(from);
  for (;;) {
    try {
      return JSON.parse(readFileSync(join(dir, '.local/stack.json'), 'utf8')) as StackFile;
    } catch {
      const up = dirname(dir);
      if (up === dir) throw new Error('no .local/stack.json found: start the stack with `./stack up`');
      dir = up;
    }
  }
}
