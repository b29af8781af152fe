import { describe, expect, it } from 'vitest';
import { ConfigError, env, loadConfig } from '@feedback/kit-core/runtime';
import { kafkaConnection, kafkaSecurityEnv } from '../src/index.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';
const files: Record<string, string> = {
  '/ca.pem': CA,
  '/cert.pem': CA,
  '/key.pem': KEY,
  '/pw': 's3cret\n',
  '/empty': '',
  '/junk': 'hello',
};
const readFile = (path: string) => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return text;
};

const connect = (vars: Record<string, string>) =>
  kafkaConnection(loadConfig({ KAFKA_BROKERS: env.list('b1:9093,b2:9093'), ...kafkaSecurityEnv }, vars), readFile);

function refusal(vars: Record<string, string>): string {
  try {
    connect(vars);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted, but the test expected a ConfigError');
}

describe('kafkaConnection', () => {
  it('is plaintext without SASL when nothing is set (an empty variable counts as unset)', () => {
    expect(connect({})).toEqual({ brokers: ['b1:9093', 'b2:9093'] });
    expect(connect({ KAFKA_SASL_MECHANISM: '', KAFKA_TLS_CA_FILE: '' })).toEqual({ brokers: ['b1:9093', 'b2:9093'] });
  });

  it('TLS alone trusts the system CAs; a CA file, a client certificate and the name check shape the options', () => {
    expect(connect({ KAFKA_TLS: 'true' }).ssl).toBe(true);
    expect(connect({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: '/ca.pem' }).ssl).toEqual({ ca: [CA] });
    const mtls = connect({ KAFKA_TLS: 'true', KAFKA_TLS_CERT_FILE: '/cert.pem', KAFKA_TLS_KEY_FILE: '/key.pem' }).ssl;
    expect(mtls).toEqual({ cert: CA, key: KEY });
    const unchecked = connect({ KAFKA_TLS: 'true', KAFKA_TLS_CHECK_SERVER_NAME: 'false' }).ssl as { checkServerIdentity: () => unknown };
    expect(Object.keys(unchecked)).toEqual(['checkServerIdentity']);
    expect(unchecked.checkServerIdentity()).toBeUndefined();
  });

  it('SASL: the mechanism in any case, the password from the variable or a file (trailing newline dropped)', () => {
    expect(connect({ KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }).sasl).toEqual({
      mechanism: 'scram-sha-512',
      username: 'u',
      password: 'p',
    });
    expect(connect({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD_FILE: '/pw' }).sasl).toEqual({
      mechanism: 'plain',
      username: 'u',
      password: 's3cret',
    });
  });

  it('refuses nonsense at start-up, naming each variable', () => {
    expect(refusal({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_PASSWORD: 'p' })).toMatch(
      /KAFKA_SASL_USERNAME: is required with KAFKA_SASL_MECHANISM=scram-sha-256/,
    );
    expect(refusal({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toMatch(
      /KAFKA_SASL_PASSWORD: or KAFKA_SASL_PASSWORD_FILE is required/,
    );
    expect(
      refusal({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p', KAFKA_SASL_PASSWORD_FILE: '/pw' }),
    ).toMatch(/KAFKA_SASL_PASSWORD_FILE: and KAFKA_SASL_PASSWORD are both set/);
    expect(refusal({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toMatch(
      /KAFKA_SASL_USERNAME: is set but KAFKA_SASL_MECHANISM is not[\s\S]*KAFKA_SASL_PASSWORD: is set but/,
    );
    expect(() => connect({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /KAFKA_SASL_MECHANISM: must be one of plain, scram-sha-256, scram-sha-512/,
    );
    expect(refusal({ KAFKA_TLS_CA_FILE: '/ca.pem' })).toMatch(/KAFKA_TLS_CA_FILE: is set but KAFKA_TLS is not true/);
    expect(refusal({ KAFKA_TLS: 'true', KAFKA_TLS_CERT_FILE: '/cert.pem' })).toMatch(/KAFKA_TLS_KEY_FILE: is required with the other one/);
    expect(refusal({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: '/missing.pem' })).toMatch(
      /KAFKA_TLS_CA_FILE: cannot read \/missing.pem: ENOENT/,
    );
    expect(refusal({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: '/junk' })).toMatch(/KAFKA_TLS_CA_FILE: \/junk holds no PEM certificate/);
    expect(refusal({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD_FILE: '/empty' })).toMatch(
      /KAFKA_SASL_PASSWORD_FILE: \/empty is empty/,
    );
  });

  it('never puts the password in a refusal', () => {
    const message = refusal({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: 'hunter2-very-secret' });
    expect(message).toMatch(/KAFKA_SASL_USERNAME/);
    expect(message).not.toContain('hunter2-very-secret');
  });
});
