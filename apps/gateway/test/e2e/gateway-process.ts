import { freePort, readStackFile, startAppProcess } from '@feedback/dev-stack';

export { freePort };

export interface GatewayProcess {
  baseUrl: string;
  /** Its link listener ({shortener_url}). */
  linkUrl: string;
  output(): string;
  /** Null while it runs. */
  exitCode(): number | null;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Another gateway process (`node --import tsx src/main.ts`, as infra/apps.sh starts it) on free
 * ports, in front of the running stack's services, database and Redis unless `env` says
 * otherwise; resolved once its /ready answers 200 (both listeners up).
 */
export async function startGatewayProcess(env: Record<string, string> = {}, readyTimeoutMs = 60_000): Promise<GatewayProcess> {
  const stack = readStackFile();
  // A test that must know the URL before the start (a provider's registered callback) picks API_PORT itself.
  const apiPort = Number(env.API_PORT ?? 0) || (await freePort());
  const linkPort = await freePort();
  const gateway = startAppProcess('gateway', {
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
  });
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  try {
    await gateway.waitUntil(
      'ready',
      () => fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok),
      readyTimeoutMs,
    );
  } catch (err) {
    await gateway.kill('SIGKILL');
    throw err;
  }
  return {
    baseUrl,
    linkUrl: `http://127.0.0.1:${linkPort}`,
    output: gateway.output,
    exitCode: gateway.exitCode,
    kill: (signal = 'SIGTERM') => gateway.kill(signal),
  };
}
