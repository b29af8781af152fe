import { beforeAll, describe, expect, it } from 'vitest';
import { APPS, envValue, find, helmBin, render, template, type K8sObject } from './chart-render.js';

/**
 * The chart's sso (values.yaml; docs/decisions.md "Single sign-on"): the gateway, and only it, gets
 * OIDC_* and the client secret as a file from the operator's Secret, mounted read-only; nothing by
 * default, and an issuer without a client id is refused at install.
 */
let helm: string;
let withSso: K8sObject[];
let defaults: K8sObject[];
const SET = [
  '--set',
  'sso.issuerUrl=https://id.example.com',
  '--set',
  'sso.clientId=feedback-console',
  '--set',
  'sso.clientSecretSecret=feedback-sso',
  '--set',
  'sso.displayName=Example ID',
];
beforeAll(() => {
  helm = helmBin();
  withSso = render(helm, SET);
  defaults = render(helm);
}, 600_000);

const deployment = (objects: K8sObject[], app: string) => find(objects, 'Deployment', `feedback-${app}`);

describe('chart: single sign-on', () => {
  it('gives the gateway the OIDC settings and the client secret file from the named Secret, read-only', () => {
    const d = deployment(withSso, 'gateway');
    expect(envValue(withSso, d, 'OIDC_ISSUER_URL')).toBe('https://id.example.com');
    expect(envValue(withSso, d, 'OIDC_CLIENT_ID')).toBe('feedback-console');
    expect(envValue(withSso, d, 'OIDC_DISPLAY_NAME')).toBe('Example ID');
    expect(envValue(withSso, d, 'OIDC_REDIRECT_URL')).toBeUndefined();
    const path = envValue(withSso, d, 'OIDC_CLIENT_SECRET_FILE') as string;
    const spec = d.spec.template.spec;
    const mount = spec.containers[0].volumeMounts.find((m: { mountPath: string }) => path.startsWith(`${m.mountPath}/`));
    expect(mount).toMatchObject({ readOnly: true });
    const volume = spec.volumes.find((v: { name: string }) => v.name === mount.name);
    expect(volume.secret).toMatchObject({
      secretName: 'feedback-sso',
      items: [{ key: 'client-secret', path: path.slice(mount.mountPath.length + 1) }],
    });
    for (const app of APPS.filter((a) => a !== 'gateway'))
      expect(envValue(withSso, deployment(withSso, app), 'OIDC_ISSUER_URL')).toBeUndefined();
  });

  it('sets nothing by default, and refuses an issuer without a client id or over plain http', () => {
    expect(envValue(defaults, deployment(defaults, 'gateway'), 'OIDC_ISSUER_URL')).toBeUndefined();
    const noClient = template(helm, ['--set', 'sso.issuerUrl=https://id.example.com']);
    expect(noClient.status).not.toBe(0);
    expect(noClient.stderr).toMatch(/sso.issuerUrl needs sso.clientId/);
    const plain = template(helm, ['--set', 'sso.issuerUrl=http://id.example.com', '--set', 'sso.clientId=x']);
    expect(plain.status).not.toBe(0);
  });
});
