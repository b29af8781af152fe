import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEnv as gatewayEnv } from '../../apps/gateway/src/env.js';
import { APPS, envValue, find, render, renderChart, template, valuesFile, type K8sObject } from './chart-render.js';

/**
 * The chart's Kafka TLS/SASL and MongoDB/Redis TLS values (README.md "Secured Kafka, MongoDB and
 * Redis"): which Secrets each app mounts, the variables that point into them, and that the apps'
 * own env.ts accepts what the chart renders.
 */
let helm: string;
let defaults: K8sObject[];
let full: K8sObject[];
let inline: K8sObject[];
beforeAll(() => {
  ({ helm, defaults, full } = renderChart());
  inline = render(helm, valuesFile('inline-secrets-values.yaml'));
}, 600_000);

const KAFKA_APPS = ['gateway', 'survey', 'messaging', 'file', 'shortener', 'webhooks'];
const deployment = (objects: K8sObject[], app: string, prefix = 'feedback') => find(objects, 'Deployment', `${prefix}-${app}`);
const pod = (d: K8sObject) => d.spec.template.spec;

/** Where a file variable points: the volume mounted over it, its Secret, and the Secret key behind the file. */
function fileSource(d: K8sObject, path: string) {
  const mount = pod(d).containers[0].volumeMounts.find((m: { mountPath: string }) => path.startsWith(`${m.mountPath}/`));
  if (!mount) return undefined;
  const volume = pod(d).volumes.find((v: { name: string }) => v.name === mount.name);
  const item = volume.secret?.items.find((i: { path: string }) => `${mount.mountPath}/${i.path}` === path);
  return { readOnly: mount.readOnly, secret: volume.secret?.secretName, key: item?.key, mode: volume.secret?.defaultMode };
}

describe('chart: secured Kafka, MongoDB and Redis', () => {
  it('defaults: plaintext, no security variables and no Secret mounted beyond the stores’ URLs', () => {
    for (const app of APPS) {
      const d = deployment(defaults, app);
      const names = pod(d).containers[0].env.map((e: { name: string }) => e.name);
      expect(names.filter((n: string) => /^KAFKA_|_TLS_/.test(n))).toEqual([]);
      expect(pod(d).volumes.filter((v: { secret?: unknown }) => v.secret)).toEqual([]);
    }
  });

  it('full values (Strimzi SCRAM over TLS): each Kafka app reads the CA and the password from the KafkaUser’s Secrets, read-only', () => {
    for (const app of KAFKA_APPS) {
      const d = deployment(full, app);
      expect(envValue(full, d, 'KAFKA_BROKERS')).toBe('feedback-kafka-bootstrap.kafka:9093,feedback-kafka-brokers.kafka:9093');
      expect(envValue(full, d, 'KAFKA_TLS')).toBe('true');
      expect(envValue(full, d, 'KAFKA_SASL_MECHANISM')).toBe('scram-sha-512');
      expect(envValue(full, d, 'KAFKA_SASL_USERNAME')).toBe('feedback');
      expect(envValue(full, d, 'KAFKA_SASL_PASSWORD')).toBeUndefined();
      expect(envValue(full, d, 'KAFKA_TLS_CHECK_SERVER_NAME')).toBeUndefined(); // on: the app's default
      expect(fileSource(d, envValue(full, d, 'KAFKA_TLS_CA_FILE') as string)).toEqual({
        readOnly: true,
        secret: 'feedback-cluster-ca-cert',
        key: 'ca.crt',
        mode: 0o440,
      });
      expect(fileSource(d, envValue(full, d, 'KAFKA_SASL_PASSWORD_FILE') as string)).toEqual({
        readOnly: true,
        secret: 'feedback',
        key: 'password',
        mode: 0o440,
      });
      expect(fileSource(d, envValue(full, d, 'MONGO_TLS_CA_FILE') as string)).toMatchObject({
        secret: 'feedback-mongodb-ca',
        key: 'ca.crt',
      });
    }
    const flow = deployment(full, 'flow');
    expect(envValue(full, flow, 'KAFKA_TLS')).toBeUndefined();
    expect(pod(flow).volumes.map((v: { name: string }) => v.name)).toEqual(['tmp', 'mongodb-ca']);
    const gateway = deployment(full, 'gateway');
    expect(fileSource(gateway, envValue(full, gateway, 'REDIS_TLS_CA_FILE') as string)).toMatchObject({
      secret: 'feedback-redis-ca',
      key: 'ca.pem',
    });
    expect(envValue(full, deployment(full, 'survey'), 'REDIS_TLS_CA_FILE')).toBeUndefined();
    // The password is the operator's Secret's (as every credential there): the chart makes no Secret at all.
    expect(full.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  it('inline values (Confluent Cloud PLAIN over TLS with public CAs): the password goes into the chart’s Secret', () => {
    const secret = find(inline, 'Secret', 'acme-credentials');
    expect(Buffer.from(secret.data['kafka-sasl-password'], 'base64').toString()).toBe('confluent-api-secret');
    const d = deployment(inline, 'messaging', 'acme');
    expect(envValue(inline, d, 'KAFKA_TLS')).toBe('true');
    expect(envValue(inline, d, 'KAFKA_TLS_CA_FILE')).toBeUndefined();
    expect(envValue(inline, d, 'KAFKA_SASL_MECHANISM')).toBe('plain');
    expect(fileSource(d, envValue(inline, d, 'KAFKA_SASL_PASSWORD_FILE') as string)).toMatchObject({
      secret: 'acme-credentials',
      key: 'kafka-sasl-password',
    });
  });

  it('a changed Kafka setting rolls the pods', () => {
    const checksum = (objects: K8sObject[]) => deployment(objects, 'survey').spec.template.metadata.annotations['checksum/secrets'];
    const other = render(helm, [...valuesFile('full-values.yaml'), '--set', 'kafka.sasl.username=someone-else']);
    expect(checksum(other)).not.toBe(checksum(full));
  });

  it('refuses what the apps would refuse at start-up', () => {
    const refusal = (...set: string[]) => {
      const res = template(
        helm,
        set.flatMap((s) => ['--set', s]),
      );
      expect(res.status).not.toBe(0);
      return res.stderr;
    };
    expect(refusal('kafka.sasl.mechanism=scram-sha-512', 'kafka.sasl.password=x')).toMatch(
      /kafka.sasl.mechanism needs kafka.sasl.username/,
    );
    expect(refusal('kafka.sasl.mechanism=plain', 'kafka.sasl.username=u')).toMatch(
      /needs kafka.sasl.password or kafka.sasl.existingSecret/,
    );
    expect(refusal('kafka.sasl.username=u')).toMatch(/need kafka.sasl.mechanism/);
    expect(refusal('kafka.tls.caSecret=ca')).toMatch(/need kafka.tls.enabled: true/);
    expect(refusal('kafka.sasl.mechanism=gssapi')).toMatch(/kafka\.sasl\.mechanism|value must be one of/);
  });

  it('the gateway’s env.ts accepts what the chart renders (files laid out as the mounts would)', () => {
    const root = mkdtempSync(join(tmpdir(), 'chart-env-'));
    try {
      const d = deployment(full, 'gateway');
      const container = pod(d).containers[0];
      const vars: Record<string, string> = { ...find(full, 'ConfigMap', 'feedback-gateway-config').data };
      for (const e of container.env as { name: string; value?: string }[]) vars[e.name] = e.value ?? 'x'.repeat(43);
      vars.MONGO_URL = 'mongodb://feedback:pw@mongo-0:27017/?tls=true';
      vars.REDIS_URL = 'rediss://default:pw@redis:6380';
      const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
      for (const [name, value] of Object.entries(vars)) {
        if (!name.endsWith('_FILE') || name === 'SMS_LIMITS_FILE') continue;
        const local = join(root, value);
        mkdirSync(dirname(local), { recursive: true });
        writeFileSync(local, name === 'KAFKA_SASL_PASSWORD_FILE' ? 'scram-password\n' : pem);
        vars[name] = local;
      }
      delete vars.SMS_LIMITS_FILE;
      const config = gatewayEnv(vars);
      expect(config.kafka.brokers).toEqual(['feedback-kafka-bootstrap.kafka:9093', 'feedback-kafka-brokers.kafka:9093']);
      expect(config.kafka.ssl).toEqual({ ca: [pem] });
      expect(config.kafka.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'feedback', password: 'scram-password' });
      expect(config.mongo.tlsCAFile).toBe(join(root, '/etc/feedback/tls/mongodb-ca/ca.crt'));
      expect(config.redis.tls).toEqual({ ca: [pem] });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
