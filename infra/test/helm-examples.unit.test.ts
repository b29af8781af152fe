import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { byKind, CHART, envValue, find, helmBin, read, render, type K8sObject } from './chart-render.js';

/**
 * The operator's guide's values examples (deploy/helm/feedback/examples/, docs/operations.md): each is named by
 * the guide and renders; infra/k8s-tools.sh check lints and validates them against the Kubernetes schemas. Here:
 * that each wires the stores the way its comments say.
 */
const EXAMPLES = readdirSync(resolve(CHART, 'examples')).filter((f) => f.endsWith('-values.yaml'));
let helm: string;
const rendered = new Map<string, K8sObject[]>();
beforeAll(() => {
  helm = helmBin();
  for (const file of EXAMPLES) rendered.set(file, render(helm, ['--values', resolve(CHART, 'examples', file)]));
}, 600_000);

const deployment = (file: string, app: string) => find(rendered.get(file)!, 'Deployment', `feedback-${app}`);
/** The Secret and key behind a variable's value or behind the file a *_FILE variable names. */
function secretBehind(file: string, app: string, name: string): { secret: string; key: string } | undefined {
  const d = deployment(file, app);
  const value = envValue(rendered.get(file)!, d, name);
  if (value && typeof value === 'object') return value;
  const spec = d.spec.template.spec;
  const mount = spec.containers[0].volumeMounts.find((m: { mountPath: string }) => String(value).startsWith(`${m.mountPath}/`));
  const volume = spec.volumes.find((v: { name: string }) => v.name === mount?.name);
  const item = volume?.secret?.items.find((i: { path: string }) => `${mount.mountPath}/${i.path}` === value);
  return volume ? { secret: volume.secret.secretName, key: item?.key } : undefined;
}

describe('the values examples of docs/operations.md', () => {
  it('are four, each named by the guide', () => {
    expect(EXAMPLES.sort()).toEqual(['aws-values.yaml', 'bitnami-values.yaml', 'minio-values.yaml', 'strimzi-kafka-values.yaml']);
    const guide = read('docs/operations.md');
    for (const file of EXAMPLES) expect(guide).toContain(`examples/${file}`);
  });

  it('each renders every app, with every credential in the operator\u2019s Secrets (no store URL in the chart\u2019s)', () => {
    for (const file of EXAMPLES) {
      const objects = rendered.get(file)!;
      expect(byKind(objects, 'Deployment'), file).toHaveLength(7);
      expect(secretBehind(file, 'survey', 'MONGO_URL'), file).toEqual({ secret: 'feedback-mongodb', key: 'MONGO_URL' });
      expect(secretBehind(file, 'gateway', 'REDIS_URL'), file).toEqual({ secret: 'feedback-redis', key: 'REDIS_URL' });
      expect(secretBehind(file, 'file', 'S3_ACCESS_KEY'), file).toEqual({ secret: 'feedback-s3', key: 'S3_ACCESS_KEY' });
      expect(
        byKind(objects, 'Secret').flatMap((s) => Object.keys(s.data ?? {})),
        file,
      ).not.toContain('MONGO_URL');
    }
  });

  it('Strimzi: the TLS listener, its CA and the SCRAM user from the Secrets copied out of the Kafka namespace', () => {
    for (const app of ['gateway', 'messaging', 'webhooks']) {
      const objects = rendered.get('strimzi-kafka-values.yaml')!;
      const d = deployment('strimzi-kafka-values.yaml', app);
      expect(envValue(objects, d, 'KAFKA_BROKERS')).toBe('feedback-kafka-bootstrap.kafka.svc:9093');
      expect(envValue(objects, d, 'KAFKA_TLS')).toBe('true');
      expect(envValue(objects, d, 'KAFKA_SASL_MECHANISM')).toBe('scram-sha-512');
      expect(envValue(objects, d, 'KAFKA_SASL_USERNAME')).toBe('feedback');
      expect(secretBehind('strimzi-kafka-values.yaml', app, 'KAFKA_TLS_CA_FILE')).toEqual({ secret: 'feedback-kafka-ca', key: 'ca.crt' });
      expect(secretBehind('strimzi-kafka-values.yaml', app, 'KAFKA_SASL_PASSWORD_FILE')).toEqual({
        secret: 'feedback-kafka-user',
        key: 'password',
      });
    }
  });

  it('AWS: MSK over TLS with the image\u2019s public CAs (no CA file), S3 in the region', () => {
    const objects = rendered.get('aws-values.yaml')!;
    const d = deployment('aws-values.yaml', 'file');
    expect(envValue(objects, d, 'KAFKA_TLS')).toBe('true');
    expect(envValue(objects, d, 'KAFKA_TLS_CA_FILE')).toBeUndefined();
    expect(envValue(objects, d, 'S3_ENDPOINT')).toBe('https://s3.eu-central-1.amazonaws.com');
    expect(envValue(objects, d, 'S3_REGION')).toBe('eu-central-1');
  });
});
