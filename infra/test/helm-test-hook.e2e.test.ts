import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { find, helmBin, render, ROOT, type K8sObject } from './chart-render.js';

/**
 * The `helm test` hook's script, exactly as the rendered Pod runs it (`node -e`), against the running local
 * stack: its checks pass on healthy apps and fail, naming the service, on a port where none answers.
 */
const stack = JSON.parse(readFileSync(resolve(ROOT, '.local/stack.json'), 'utf8')) as { base_url: string; grpc: Record<string, string> };
// The image runs it from /app, whose node_modules holds @grpc/grpc-js; here a package that depends on it.
const CWD = resolve(ROOT, 'packages/kit-grpc');
let command: string[];
beforeAll(() => {
  const pod = find(render(helmBin()), 'Pod', 'feedback-test') as K8sObject;
  command = pod.spec.containers[0].command;
}, 600_000);

const run = (env: Record<string, string>) => {
  const [node, ...args] = command;
  return spawnSync(node === 'node' ? process.execPath : node!, args, {
    cwd: CWD,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
};

describe('the helm test script', () => {
  it('passes against the running apps: /ready, the error body, every gRPC service SERVING', () => {
    const services = Object.entries(stack.grpc).map(([name, addr]) => `${name}=${addr}`);
    const res = run({ API_URL: stack.base_url, GRPC_SERVICES: services.join(',') });
    expect(res.stdout).toContain(`all ${services.length + 2} checks passed`);
    expect(res.stdout).toContain('ok   API error body: GET /v1/sms_campaigns without a token: 401, code 13001');
    expect(res.status).toBe(0);
  });

  it('fails, naming the service, when one does not answer', () => {
    const res = run({ GRPC_SERVICES: 'ghost=127.0.0.1:1', ATTEMPTS: '1' });
    expect(res.stdout).toMatch(/^FAIL ghost: 127\.0\.0\.1:1: /m);
    expect(res.status).toBe(1);
  });
});
