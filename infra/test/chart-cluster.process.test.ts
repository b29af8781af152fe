import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestRelease, RELEASES_DIR } from '../chart-version.js';
import { CHART, ROOT, helmBin, read, render, valuesFile, yaml, type K8sObject } from './chart-render.js';

/*
 * The chart on a real Kubernetes control plane (infra/kube.sh: etcd, kube-apiserver with RBAC and Pod
 * Security admission, the controller-manager, the scheduler; one node simulated by kwok, which marks
 * pods Running and Ready and completes helm's test pods). What only an API server and its controllers
 * show: admission under the restricted profile, Deployments becoming Available, `helm --wait`, upgrades
 * from the last released package, `helm test`, rollbacks, and the monitoring parts left out where the
 * cluster lacks their CRDs. Each step prints how long it took (docs/operations.md quotes the figures).
 */

const KUBE = resolve(ROOT, 'infra/kube.sh');
const STEP_MS = 300_000;

let helm = '';
let kubectl = '';
let kubeconfig = '';
let startedCluster = false;
/** HOME of helm and kubectl (their caches and settings): nothing read from or left in the user's. */
const home = mkdtempSync(join(tmpdir(), 'chart-cluster-'));
const suffix = Date.now().toString(36);
const namespaces: string[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with the cluster's kubeconfig; resolves with its exit code and output (never rejects). */
function run(cmd: string, args: string[], input?: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(cmd, args, {
      env: { ...process.env, HOME: home, KUBECONFIG: kubeconfig, HELM_CACHE_HOME: join(home, 'helm-cache') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Like run, but fails with the command's output unless it exits 0. */
async function ok(cmd: string, args: string[], input?: string): Promise<Run> {
  const res = await run(cmd, args, input);
  if (res.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${res.code}:\n${res.stdout}\n${res.stderr}`);
  return res;
}

/** infra/kube.sh ARGS...: what it prints (its log lines go to the test's stderr); async, as the first up may build for minutes. */
function kubeSh(...args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', [KUBE, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => (code === 0 ? done(out.trim()) : fail(new Error(`infra/kube.sh ${args.join(' ')} exited ${code}`))));
  });
}

const k = (args: string[], input?: string) => ok(kubectl, args, input);
const getJson = async (args: string[]): Promise<K8sObject> => JSON.parse((await k([...args, '-o', 'json'])).stdout);

/** Runs a step and prints its duration; the step's result. */
async function timedStep<T>(name: string, step: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await step();
  console.log(`[chart-cluster] ${name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/** A namespace that enforces (and warns about) the restricted Pod Security profile of the server's version. */
async function restrictedNamespace(name: string): Promise<string> {
  const ns = `${name}-${suffix}`;
  const version = (await getJson(['version'])).serverVersion;
  const level = `v${version.major}.${version.minor}`;
  const labels = Object.fromEntries(
    ['enforce', 'warn', 'audit'].flatMap((mode) => [
      [`pod-security.kubernetes.io/${mode}`, 'restricted'],
      [`pod-security.kubernetes.io/${mode}-version`, level],
    ]),
  );
  await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } }));
  namespaces.push(ns);
  return ns;
}

/**
 * The Secrets a values file names (secretKeyRef and secret volumes of the rendered chart) made in the
 * namespace with placeholder contents, as an operator (or the operators of the stores) would.
 */
async function secretsFor(ns: string, values: string[]) {
  const wanted = new Map<string, Set<string>>();
  const add = (name: string, key: string) => wanted.set(name, (wanted.get(name) ?? new Set()).add(key));
  const walk = (o: unknown): void => {
    if (Array.isArray(o)) return o.forEach(walk);
    if (!o || typeof o !== 'object') return;
    const obj = o as K8sObject;
    if (obj.secretKeyRef) add(obj.secretKeyRef.name, obj.secretKeyRef.key);
    if (obj.secret?.secretName) for (const item of obj.secret.items ?? [{ key: 'value' }]) add(obj.secret.secretName, item.key);
    Object.values(obj).forEach(walk);
  };
  const objects = render(helm, values);
  walk(objects);
  for (const s of objects.filter((o) => o.kind === 'Secret')) wanted.delete(s.metadata.name); // the chart's own
  const secrets = [...wanted].map(([name, keys]) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns },
    stringData: Object.fromEntries([...keys].map((key) => [key, `placeholder-${key}`])),
  }));
  if (secrets.length > 0) await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: secrets }));
}

/**
 * Waits until every Deployment of the namespace is Available with all its replicas updated and
 * available (`helm --wait` returns as soon as the pods are Ready, before minReadySeconds has passed).
 */
async function deploymentsAvailable(ns: string) {
  const deadline = Date.now() + STEP_MS / 2;
  for (;;) {
    const items: K8sObject[] = (await getJson(['get', 'deployments', '-n', ns])).items;
    const waiting = items.filter((d) => {
      const want = d.spec.replicas ?? 1;
      const s = d.status ?? {};
      const available = (s.conditions ?? []).some((c: K8sObject) => c.type === 'Available' && c.status === 'True');
      return !(available && s.observedGeneration >= d.metadata.generation && s.updatedReplicas === want && s.availableReplicas === want);
    });
    if (items.length > 0 && waiting.length === 0) return items;
    if (Date.now() > deadline) {
      const events = (await run(kubectl, ['get', 'events', '-n', ns, '--field-selector', 'type=Warning'])).stdout;
      throw new Error(`Deployments not Available: ${waiting.map((d) => d.metadata.name).join(', ')}\n${events}`);
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * No warning on helm's stderr (where the API server's warnings go, Pod Security's "would violate ..."
 * among them; NOTES go to stdout) and no pod refused by admission (a ReplicaSet's FailedCreate event).
 */
async function expectNoWarnings(ns: string, output: Run) {
  expect(output.stderr).not.toMatch(/warning|violate/i);
  const events: K8sObject[] = (await getJson(['get', 'events', '-n', ns, '--field-selector', 'type=Warning'])).items;
  const refusals = events.filter((e) => e.reason === 'FailedCreate' || /PodSecurity|forbidden/i.test(e.message ?? ''));
  expect(refusals.map((e) => `${e.involvedObject?.name} ${e.reason}: ${e.message}`)).toEqual([]);
}

const chartVersion = (yaml.parse(read('deploy/helm/feedback/Chart.yaml')) as K8sObject).version as string;

/** The newest packaged release (deploy/helm/releases/feedback-<version>.tgz): what upgrades start from. */
function lastRelease(): { file: string; version: string } {
  const newest = newestRelease(readdirSync(RELEASES_DIR));
  if (!newest) throw new Error(`no feedback-*.tgz in ${RELEASES_DIR}`);
  return { file: join(RELEASES_DIR, newest.file), version: newest.version };
}

const history = async (ns: string): Promise<K8sObject[]> =>
  JSON.parse((await ok(helm, ['history', 'feedback', '-n', ns, '-o', 'json'])).stdout);

describe('the chart on a real control plane (infra/kube.sh)', () => {
  beforeAll(async () => {
    helm = helmBin();
    startedCluster = !(await kubeSh('status')).includes('kube-apiserver: up');
    // Builds Kubernetes first on a fresh cache (./stack test starts that build in the background early).
    kubeconfig = (await kubeSh('up')).split('\n').at(-1)!;
    kubectl = await kubeSh('bin', 'kubectl');
  }, 1_800_000);

  afterAll(async () => {
    if (startedCluster) await kubeSh('down');
    else if (kubectl && namespaces.length > 0) await run(kubectl, ['delete', 'namespace', '--wait=false', ...namespaces]);
    rmSync(home, { recursive: true, force: true });
  }, 120_000);

  let upgraded = '';

  it(
    'installs with --wait into a namespace enforcing the restricted Pod Security profile; every Deployment becomes Available, without a warning',
    async () => {
      const ns = await restrictedNamespace('install');
      // The namespace really enforces the profile: a pod without the restricted security context is refused.
      const refused = await run(
        kubectl,
        ['create', '--dry-run=server', '-n', ns, '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'unrestricted' },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        }),
      );
      expect(refused.stderr).toMatch(/violates PodSecurity "restricted/);

      const out = await timedStep('helm install --wait', () =>
        ok(helm, ['install', 'feedback', CHART, '-n', ns, '--wait', '--timeout', '4m']),
      );
      const deployments = await timedStep('Deployments Available', () => deploymentsAvailable(ns));
      expect(deployments.map((d) => d.metadata.name).sort()).toEqual(
        ['file', 'flow', 'gateway', 'messaging', 'shortener', 'survey', 'webhooks'].map((a) => `feedback-${a}`),
      );
      await expectNoWarnings(ns, out);
    },
    STEP_MS,
  );

  it(
    'upgrades with --wait from the last released package to the working tree’s chart',
    async () => {
      const ns = await restrictedNamespace('upgrade');
      const release = lastRelease();
      await timedStep(`helm install ${release.version} --wait`, () =>
        ok(helm, ['install', 'feedback', release.file, '-n', ns, '--wait', '--timeout', '4m']),
      );
      await deploymentsAvailable(ns);
      const out = await timedStep(`helm upgrade ${release.version} -> ${chartVersion} --wait`, () =>
        ok(helm, ['upgrade', 'feedback', CHART, '-n', ns, '--wait', '--timeout', '4m']),
      );
      await timedStep('Deployments Available after the upgrade', () => deploymentsAvailable(ns));
      await expectNoWarnings(ns, out);
      const revisions = await history(ns);
      expect(revisions.map((r) => [r.revision, r.chart, r.status])).toEqual([
        [1, `feedback-${release.version}`, 'superseded'],
        [2, `feedback-${chartVersion}`, 'deployed'],
      ]);
      upgraded = ns;
    },
    STEP_MS,
  );

  it(
    'runs helm test (its test pods Succeeded) and rolls back with --wait to the released version',
    async () => {
      expect(upgraded, 'the upgrade step ran first').not.toBe('');
      const ns = upgraded;
      const tested = await timedStep('helm test', () => ok(helm, ['test', 'feedback', '-n', ns, '--timeout', '3m']));
      const suites = [...tested.stdout.matchAll(/^TEST SUITE:\s+(\S+)\n(?:.*\n)*?Phase:\s+(\S+)/gm)].map((m) => [m[1], m[2]]);
      expect(suites.length, tested.stdout).toBeGreaterThan(0);
      for (const [, phase] of suites) expect(phase).toBe('Succeeded');

      const release = lastRelease();
      await timedStep('helm rollback --wait', () => ok(helm, ['rollback', 'feedback', '1', '-n', ns, '--wait', '--timeout', '4m']));
      await timedStep('Deployments Available after the rollback', () => deploymentsAvailable(ns));
      const last = (await history(ns)).at(-1);
      expect([last.revision, last.chart, last.status]).toEqual([3, `feedback-${release.version}`, 'deployed']);
    },
    STEP_MS,
  );

  it(
    'installs ci/full-values.yaml without the monitoring CRDs (those parts left out, NOTES says so), then with them',
    async () => {
      const ns = await restrictedNamespace('full');
      const values = valuesFile('full-values.yaml');
      await secretsFor(ns, values);
      const without = await timedStep('helm install full-values --wait (no monitoring CRDs)', () =>
        ok(helm, ['install', 'feedback', CHART, '-n', ns, ...values, '--wait', '--timeout', '4m']),
      );
      await deploymentsAvailable(ns);
      await expectNoWarnings(ns, without);
      const kinds = (manifest: string) =>
        yaml
          .parseAllDocuments(manifest)
          .map((d) => (d.toJSON() as K8sObject)?.kind)
          .filter(Boolean);
      expect(kinds((await ok(helm, ['get', 'manifest', 'feedback', '-n', ns])).stdout)).not.toContain('PodMonitor');
      expect(without.stdout).toMatch(/PodMonitor/);
      expect(without.stdout).toMatch(/PrometheusRule/);

      await k(['apply', '--server-side', '-f', await kubeSh('bin', 'monitoring-crds')]);
      await k([
        'wait',
        '--for=condition=Established',
        '--timeout=60s',
        'crd/podmonitors.monitoring.coreos.com',
        'crd/prometheusrules.monitoring.coreos.com',
      ]);
      const upgrade = await timedStep('helm upgrade full-values --wait (monitoring CRDs applied)', () =>
        ok(helm, ['upgrade', 'feedback', CHART, '-n', ns, ...values, '--wait', '--timeout', '4m']),
      );
      await expectNoWarnings(ns, upgrade);
      const monitoring = await getJson(['get', 'podmonitors.monitoring.coreos.com,prometheusrules.monitoring.coreos.com', '-n', ns]);
      expect(monitoring.items.map((o: K8sObject) => o.kind).sort()).toEqual(expect.arrayContaining(['PodMonitor', 'PrometheusRule']));
    },
    STEP_MS,
  );
});
