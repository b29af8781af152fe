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
  /** The services' gRPC targets by name: host:port, or `ipv4:host:p1,host:p2` for every replica. */
  grpc: Record<'flow' | 'file' | 'shortener' | 'survey' | 'messaging', string> & { webhooks?: string };
  /** Each app's metrics listener (http://host:port; GET /metrics), written with the apps. */
  metrics?: Record<'gateway' | 'flow' | 'file' | 'shortener' | 'survey' | 'messaging' | 'webhooks', string>;
  /** How many processes of each app run (`REPLICAS=N ./stack up`), written with the apps. */
  replicas?: number;
  /** Every gateway process's listeners, the first being base_url and shortener_url. */
  gateways?: { name: string; base_url: string; shortener_url: string }[];
  /** Every app process: its pid file name in .local/run (flow, flow-2, ...), app, replica and metrics listener. */
  processes?: { name: string; app: string; replica: number; metrics_url: string }[];
}

/** The stack's S3 as kit-stores' createS3 takes it (a logger added). */
export function s3Settings(stack: StackFile) {
  return { endpoint: stack.s3.endpoint, accessKey: stack.s3.access_key, secretKey: stack.s3.secret_key, region: stack.s3.region };
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
