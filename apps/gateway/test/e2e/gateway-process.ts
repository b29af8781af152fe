import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort, readStackFile } from '@feedback/dev-stack';

export { freePort };

const APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface GatewayProcess {
  baseUrl: string;
  /** Its link listener ({shortener_url}). */
  linkUrl: string;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Another gateway process (`node --import tsx src/main.ts`, as infra/apps.sh starts it) on free
 * ports, in front of the running stack's services, database and Redis unless `env` says
 * otherwise; resolved once its /ready answers 200 (both listeners up).
 */
export async function startGatewayProcess(env: Record<string, string> = {}, readyTimeoutMs = 60_000): Promise<GatewayProcess> {
  const stack = readStackFile();
  const apiPort = await freePort();
  const linkPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: APP_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      API_PORT: String(apiPort),
      LINK_PORT: String(linkPort),
      // Its own metrics listener: the stack's gateway has the default port.
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      ADMIN_TOKEN: stack.admin_token!,
      MONGO_URL: stack.mongo_url,
      REDIS_URL: stack.redis_url,
      KAFKA_BROKERS: stack.kafka_brokers.join(','),
      PUBLIC_BASE_URL: stack.base_url!,
      PUBLIC_SHORTENER_URL: stack.shortener_url!,
      FLOW_GRPC_ADDR: stack.grpc.flow,
      FILE_GRPC_ADDR: stack.grpc.file,
      SHORTENER_GRPC_ADDR: stack.grpc.shortener,
      SURVEY_GRPC_ADDR: stack.grpc.survey,
      MESSAGING_GRPC_ADDR: stack.grpc.messaging,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const collect = (b: Buffer) => void (out = (out + b.toString()).slice(-20_000));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = once(child, 'exit');
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway did not get ready within ${readyTimeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    linkUrl: `http://127.0.0.1:${linkPort}`,
    output: () => out,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
