import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, env, loadConfig } from '@feedback/kit-core/runtime';
import { freePort, makeTestCertificates, type TestCertificates } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, redisConnection, redisSecurityEnv, waitForRedis, type Redis } from '../src/index.js';

/**
 * REDIS_URL=rediss://... and REDIS_TLS_CA_FILE against a real redis-server of this test's own:
 * TLS only (no plaintext port), a password (requirepass), a certificate from a CA made here.
 */
const PASSWORD = `pw-${Date.now()}-secret`;
let dir: string;
let certs: TestCertificates;
let server: ChildProcess;
let port: number;
const logLines: string[] = [];
const logger = createLogger('kit-stores-redis-tls-test', 'debug', {}, { write: (line: string) => void logLines.push(line) });
const clients: Redis[] = [];

function redisFrom(vars: Record<string, string>): Redis {
  const config = loadConfig({ REDIS_URL: env.string(), ...redisSecurityEnv }, vars);
  const redis = createRedis({ ...redisConnection(config), logger, name: 'tls-test', connectTimeoutMs: 2_000 });
  clients.push(redis);
  return redis;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'redis-tls-'));
  certs = makeTestCertificates(dir, ['IP:127.0.0.1']);
  port = await freePort();
  server = spawn(
    'redis-server',
    [
      '--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1',
      '--tls-cert-file', certs.certFile, '--tls-key-file', certs.keyFile, '--tls-ca-cert-file', certs.caFile,
      '--tls-auth-clients', 'no', '--requirepass', PASSWORD, '--save', '', '--appendonly', 'no',
    ], // prettier-ignore
    { stdio: 'ignore' },
  );
  // Ready once the TLS port accepts a handshake from a client that trusts the CA.
  const probe = redisFrom({ REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}`, REDIS_TLS_CA_FILE: certs.caFile });
  await waitForRedis(probe, 15_000);
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
    await once(server, 'exit');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Redis over TLS with a password, configured from the environment', () => {
  it('rediss:// with the password and REDIS_TLS_CA_FILE reads and writes', async () => {
    const redis = redisFrom({ REDIS_URL: `rediss://default:${PASSWORD}@127.0.0.1:${port}`, REDIS_TLS_CA_FILE: certs.caFile });
    await waitForRedis(redis, 5_000);
    expect(await redis.set('tls-key', 'tls-value')).toBe('OK');
    expect(await redis.get('tls-key')).toBe('tls-value');
  });

  it('a wrong password is refused by the server', async () => {
    const redis = redisFrom({ REDIS_URL: `rediss://default:wrong-password@127.0.0.1:${port}`, REDIS_TLS_CA_FILE: certs.caFile });
    await expect(waitForRedis(redis, 3_000)).rejects.toThrow(/WRONGPASS|invalid password|invalid username-password/);
  });

  it('a CA that did not sign the server certificate is refused at the handshake', async () => {
    const redis = redisFrom({ REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}`, REDIS_TLS_CA_FILE: certs.otherCaFile });
    await expect(waitForRedis(redis, 3_000)).rejects.toThrow(
      /unable to verify the first certificate|unable to get local issuer certificate|self[- ]signed certificate/,
    );
  });

  it('without the CA the system trust store is used, which does not know this CA', async () => {
    const redis = redisFrom({ REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}` });
    await expect(waitForRedis(redis, 3_000)).rejects.toThrow(/certificate/);
  });

  it('refuses a CA file with a plaintext redis:// URL at start-up', () => {
    expect(() => redisFrom({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_TLS_CA_FILE: certs.caFile })).toThrow(
      /REDIS_TLS_CA_FILE: is set but REDIS_URL is not rediss:\/\//,
    );
    expect(() => redisFrom({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_TLS_CA_FILE: join(dir, 'missing.pem') })).toThrow(
      /REDIS_TLS_CA_FILE: cannot read .*missing\.pem: ENOENT/,
    );
  });

  it('never logs the password', () => {
    const all = logLines.join('');
    expect(all).toMatch(/redis ready/); // the cases above did log: the check is not vacuous
    expect(all).not.toContain(PASSWORD);
  });
});
