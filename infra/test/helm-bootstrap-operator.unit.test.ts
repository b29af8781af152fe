import { beforeAll, describe, expect, it } from 'vitest';
import { APPS, envValue, find, helmBin, render, template, type K8sObject } from './chart-render.js';

/**
 * The chart's bootstrapOperator (values.yaml; docs/api.md "Users and operators"): the gateway, and
 * only it, gets BOOTSTRAP_OPERATOR_EMAIL and the password as a file from the operator's Secret,
 * mounted read-only; nothing by default, and an e-mail without a Secret is refused at install.
 */
let helm: string;
let withOperator: K8sObject[];
let defaults: K8sObject[];
const SET = ['--set', 'bootstrapOperator.email=ops@example.com', '--set', 'bootstrapOperator.passwordSecret=feedback-operator'];
beforeAll(() => {
  helm = helmBin();
  withOperator = render(helm, SET);
  defaults = render(helm);
}, 600_000);

const deployment = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`);

describe('chart: the bootstrap operator', () => {
  it('gives the gateway the e-mail and the password file from the named Secret, read-only', () => {
    const d = deployment(withOperator, 'gateway');
    expect(envValue(withOperator, d, 'BOOTSTRAP_OPERATOR_EMAIL')).toBe('ops@example.com');
    const path = envValue(withOperator, d, 'BOOTSTRAP_OPERATOR_PASSWORD_FILE') as string;
    const spec = d.spec.template.spec;
    const mount = spec.containers[0].volumeMounts.find((m: { mountPath: string }) => path.startsWith(`${m.mountPath}/`));
    expect(mount).toMatchObject({ readOnly: true });
    const volume = spec.volumes.find((v: { name: string }) => v.name === mount.name);
    expect(volume.secret).toMatchObject({
      secretName: 'feedback-operator',
      items: [{ key: 'password', path: path.slice(mount.mountPath.length + 1) }],
    });
    for (const app of APPS.filter((a) => a !== 'gateway'))
      expect(envValue(withOperator, deployment(withOperator, app), 'BOOTSTRAP_OPERATOR_EMAIL')).toBeUndefined();
  });

  it('sets nothing by default, and refuses an e-mail without the Secret', () => {
    expect(envValue(defaults, deployment(defaults, 'gateway'), 'BOOTSTRAP_OPERATOR_EMAIL')).toBeUndefined();
    const refused = template(helm, ['--set', 'bootstrapOperator.email=ops@example.com']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/bootstrapOperator.email needs bootstrapOperator.passwordSecret/);
  });
});
