import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { createLogger, env, loadConfig } from '@feedback/kit-core/runtime';
import { makeTestCertificates } from '@feedback/dev-stack';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMongo, mongoConnection, mongoSecurityEnv, redactUrl } from '../src/index.js';
import { stack } from './stack.js';

/**
 * Credentials in MONGO_URL stay out of logs and error messages. The local server (SecantusDB)
 * speaks neither TLS nor authentication, so what is proven against it is the redaction, and that
 * MONGO_TLS_CA_FILE reaches the driver (it then insists on a TLS handshake the server cannot do).
 */
const PASSWORD = 'Sup3r-s3cret-pw';
const logLines: string[] = [];
const logger = createLogger('kit-stores-mongo-cred-test', 'debug', {}, { write: (line: string) => void logLines.push(line) });
const hostPort = new URL(stack.mongo_url).host;

async function failure(url: string, extra: { tlsCAFile?: string } = {}): Promise<Error> {
  try {
    const handle = await connectMongo({ url, dbName: 'cred_test', logger, serverSelectionTimeoutMS: 1_500, ...extra });
    await handle.close();
  } catch (err) {
    // As main.ts's crash would report it, and as a caller logging it would.
    logger.error({ err }, 'start-up failed');
    return err as Error;
  }
  throw new Error('connected, but the test expected a failure');
}

const dir = mkdtempSync(join(tmpdir(), 'mongo-cred-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MongoDB credentials never reach logs or errors', () => {
  it('redactUrl hides the password of single-host, multi-host, SRV and Redis URLs, whole even with an unescaped @', () => {
    expect(redactUrl('mongodb://app:pw@db-0:27017,db-1:27017/?replicaSet=rs0&authSource=admin')).toBe(
      'mongodb://app:***@db-0:27017,db-1:27017/?replicaSet=rs0&authSource=admin',
    );
    expect(redactUrl('mongodb+srv://app:p%40ss@cluster0.example.net/db?tls=true')).toBe(
      'mongodb+srv://app:***@cluster0.example.net/db?tls=true',
    );
    expect(redactUrl('mongodb://app:p@ss@db:27017')).toBe('mongodb://app:***@db:27017');
    expect(redactUrl('rediss://:pw@redis:6380')).toBe('rediss://:***@redis:6380');
    expect(redactUrl('mongodb://db:27017/?tls=true')).toBe('mongodb://db:27017/?tls=true');
    expect(redactUrl('mongodb://app@db:27017')).toBe('mongodb://app@db:27017');
  });

  it('a server that is not there: the message names the redacted URL, never the password', async () => {
    const err = await failure(`mongodb://app:${PASSWORD}@127.0.0.1:1/?authSource=admin`);
    expect(err.message).toMatch(/^mongo: cannot reach mongodb:\/\/app:\*\*\*@127\.0\.0\.1:1\/\?authSource=admin within 1500 ms: /);
    expect(inspect(err, { depth: 10 })).not.toContain(PASSWORD);
  });

  it('a URL the driver cannot parse fails without quoting the password', async () => {
    const err = await failure(`mongodb://app:${PASSWORD}@${hostPort}/?tls=maybe`);
    expect(err.message).toMatch(/^mongo: invalid URL mongodb:\/\/app:\*\*\*@[^ ]+\?tls=maybe: /);
    expect(inspect(err, { depth: 10 })).not.toContain(PASSWORD);
    // An unescaped @ in the password: the whole of it is hidden, wherever the driver splits.
    const split = await failure(`mongodb://app:${PASSWORD}@x@127.0.0.1:1/`);
    expect(split.message).toMatch(/^mongo: (invalid URL|cannot reach) mongodb:\/\/app:\*\*\*@127\.0\.0\.1:1\//);
    expect(inspect(split, { depth: 10 })).not.toContain(PASSWORD);
  });

  it('credentials against the local server: whatever it answers, the password stays out', async () => {
    let outcome: string;
    try {
      const handle = await connectMongo({ url: `mongodb://app:${PASSWORD}@${hostPort}/?authSource=admin`, dbName: 'cred_test', logger });
      outcome = 'connected';
      await handle.close();
    } catch (err) {
      logger.error({ err }, 'start-up failed');
      outcome = inspect(err, { depth: 10 });
    }
    expect(outcome).not.toContain(PASSWORD);
  });

  it('MONGO_TLS_CA_FILE is checked at start-up and makes the driver insist on TLS', async () => {
    const certs = makeTestCertificates(dir, ['IP:127.0.0.1']);
    const load = (vars: Record<string, string>) => mongoConnection(loadConfig({ MONGO_URL: env.string(), ...mongoSecurityEnv }, vars));
    expect(load({ MONGO_URL: stack.mongo_url })).toEqual({ url: stack.mongo_url });
    expect(() => load({ MONGO_URL: stack.mongo_url, MONGO_TLS_CA_FILE: join(dir, 'nope.pem') })).toThrow(
      /MONGO_TLS_CA_FILE: cannot read .*nope\.pem: ENOENT/,
    );
    expect(() => load({ MONGO_URL: `${stack.mongo_url}/?tls=false`, MONGO_TLS_CA_FILE: certs.caFile })).toThrow(
      /MONGO_TLS_CA_FILE: is set but MONGO_URL turns TLS off/,
    );
    const connection = load({ MONGO_URL: `mongodb://app:${PASSWORD}@${hostPort}/`, MONGO_TLS_CA_FILE: certs.caFile });
    expect(connection.tlsCAFile).toBe(certs.caFile);
    // The plaintext local server cannot finish a TLS handshake: refused, so TLS was asked for.
    const err = await failure(connection.url, { tlsCAFile: connection.tlsCAFile! });
    expect(err.message).toMatch(/^mongo: cannot reach mongodb:\/\/app:\*\*\*@/);
    expect(inspect(err, { depth: 10 })).not.toContain(PASSWORD);
  });

  it('no log line holds the password', () => {
    const all = logLines.join('');
    expect(all).toMatch(/start-up failed/); // the cases above did log: the check is not vacuous
    expect(all).not.toContain(PASSWORD);
  });
});
