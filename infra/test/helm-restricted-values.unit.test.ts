import { beforeAll, describe, expect, it } from 'vitest';
import { byKind, helmBin, render, template } from './chart-render.js';

/**
 * The chart promises Kubernetes' restricted Pod Security profile: values.schema.json refuses an override of the
 * pods' or containers' security context that the profile forbids, naming the value; and the templates refuse it
 * again, naming the value and the profile, for renderers that skip the schema (--skip-schema-validation).
 * Without either, the namespace's admission refuses the pods only at ReplicaSet level, after `helm upgrade` returned.
 */
let helm: string;
beforeAll(() => void (helm = helmBin()), 600_000);

const REFUSED: [string, string][] = [
  ['containerSecurityContext.allowPrivilegeEscalation=true', 'containerSecurityContext.allowPrivilegeEscalation'],
  ['containerSecurityContext.allowPrivilegeEscalation=null', 'allowPrivilegeEscalation'],
  ['containerSecurityContext.privileged=true', 'containerSecurityContext.privileged'],
  ['containerSecurityContext.runAsNonRoot=false', 'containerSecurityContext.runAsNonRoot'],
  ['podSecurityContext.runAsNonRoot=false', 'podSecurityContext.runAsNonRoot'],
  ['containerSecurityContext.runAsUser=0', 'containerSecurityContext.runAsUser'],
  ['podSecurityContext.runAsUser=0', 'podSecurityContext.runAsUser'],
  ['containerSecurityContext.capabilities.add={SYS_ADMIN}', 'containerSecurityContext.capabilities.add'],
  ['containerSecurityContext.capabilities.add={NET_RAW}', 'containerSecurityContext.capabilities.add'],
  ['containerSecurityContext.capabilities.drop={NET_RAW}', 'containerSecurityContext.capabilities.drop'],
  ['containerSecurityContext.seccompProfile.type=Unconfined', 'containerSecurityContext.seccompProfile.type'],
  ['podSecurityContext.seccompProfile.type=Unconfined', 'podSecurityContext.seccompProfile.type'],
  ['containerSecurityContext.procMount=Unmasked', 'containerSecurityContext.procMount'],
];

describe('values the restricted profile forbids', () => {
  it.each(REFUSED)('the schema refuses %s, naming the value', (set, named) => {
    const res = template(helm, ['--set', set]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain("values don't meet the specifications of the schema");
    expect(res.stderr).toContain(named);
  });

  it.each(REFUSED)('without the schema, the templates refuse %s, naming the value and the profile', (set, named) => {
    const res = template(helm, ['--skip-schema-validation', '--set', set]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(named);
    expect(res.stderr).toContain('restricted Pod Security profile');
  });

  it('what the chart does not let a user set at all: host namespaces, hostPath volumes, a pod spec of their own', () => {
    for (const set of [
      ['--set', 'podSecurityContext.hostNetwork=true'],
      ['--set', 'apps.gateway.hostNetwork=true'],
      ['--set', 'apps.gateway.hostPID=true'],
      ['--set', 'apps.gateway.hostIPC=true'],
      ['--set-json', 'apps.gateway.volumes=[{"name":"h","hostPath":{"path":"/"}}]'],
      ['--set', 'tests.hostNetwork=true'],
    ]) {
      const res = template(helm, set);
      expect(res.status, set.join(' ')).not.toBe(0);
      expect(res.stderr).toMatch(/Additional property \w+ is not allowed/);
    }
  });
});

describe('what the profile allows still renders', () => {
  it('the defaults', () => {
    expect(byKind(render(helm), 'Deployment')).toHaveLength(7);
  });

  it('runAsUser and fsGroup unset (OpenShift assigns them), NET_BIND_SERVICE added back, a Localhost seccomp profile', () => {
    const objects = render(helm, [
      '--set',
      'podSecurityContext.runAsUser=null',
      '--set',
      'podSecurityContext.fsGroup=null',
      '--set',
      'containerSecurityContext.runAsUser=null',
      '--set',
      'containerSecurityContext.capabilities.add={NET_BIND_SERVICE}',
      '--set',
      'containerSecurityContext.seccompProfile.type=Localhost',
      '--set',
      'containerSecurityContext.seccompProfile.localhostProfile=profiles/feedback.json',
    ]);
    const [deployment] = byKind(objects, 'Deployment');
    expect(deployment.spec.template.spec.securityContext.runAsUser).toBeUndefined();
    expect(deployment.spec.template.spec.containers[0].securityContext.capabilities).toEqual({ add: ['NET_BIND_SERVICE'], drop: ['ALL'] });
  });
});
