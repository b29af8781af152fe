import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Stack, Tour } from '../openapi-client/tour.js';
import { stackClient } from './stack-client.js';

/**
 * What an integrator does with the documents: generate types from each served /openapi.json
 * (openapi-typescript), compile a small openapi-fetch client against them (tsc,
 * test/openapi-client/), then call the running stack with it, one call or more of every tag.
 * Wrong types fail the compilation; wrong answers fail the calls or the checks below.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../../../..');
const CLIENT = join(HERE, '..', 'openapi-client');
const stack = stackClient();

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: CLIENT });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('a client generated from the OpenAPI documents', () => {
  let compiled: { code: number | null; output: string };

  beforeAll(async () => {
    const shortenerUrl = stack.stack.shortener_url;
    if (!shortenerUrl) throw new Error('stack file has no shortener_url: is the gateway up?');
    mkdirSync(join(CLIENT, 'generated'), { recursive: true });
    for (const [name, url] of [
      ['api', `${stack.baseUrl}/openapi.json`],
      ['links', `${shortenerUrl}/openapi.json`],
    ] as const) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      // Refuses a document with errors of its own (openapi-typescript lints it with Redocly first).
      writeFileSync(
        join(CLIENT, 'generated', `${name}.ts`),
        astToString(await openapiTS((await res.json()) as OpenAPI3, { silent: true })),
      );
    }
    compiled = await run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CLIENT, 'tsconfig.json')]);
  }, 120_000);

  it('compiles against the types generated from both documents', () => {
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
  });

  it('calls one route or more of every tag on the running stack and gets what the types say', { timeout: 60_000 }, async () => {
    expect(compiled.code, 'the client does not compile').toBe(0);
    // By a computed path: the gateway's own typecheck must not follow it into types generated only here.
    const client = pathToFileURL(join(CLIENT, 'client.ts')).href;
    const { tour } = (await import(client)) as { tour: (stack: Stack, label: string) => Promise<Tour> };
    const label = randomBytes(4).toString('hex');
    const t: Tour = await tour({ baseUrl: stack.baseUrl, shortenerUrl: stack.stack.shortener_url!, adminToken: stack.adminToken }, label);

    // health
    expect(t.health).toEqual({ status: 'ok' });
    // admin
    expect(t.account.name).toBe(`openapi client ${label}`);
    expect(t.flow.questions.map((q) => q.key)).toEqual(['nps']);
    expect(t.campaign).toMatchObject({ node_id: t.node.id, flow_id: t.flow.id });
    // flows
    expect(t.flowAsIntegrator).toEqual(t.flow);
    // surveys
    expect(t.personalLink.link).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    expect(t.activeSurveys.count).toBe(1);
    expect(t.activeSurveys.surveys[0]).toMatchObject({ Link: t.personalLink.link, SurveyName: t.flow.name, UnitName: t.node.name });
    // survey page
    expect(t.surveyPage.status).toBe(200);
    expect(t.surveyPage.contentType).toMatch(/^text\/html/);
    expect(t.surveyPage.html).toContain('How likely are you to recommend us?');
    // files
    expect(t.directories.map((d) => d.id)).toContain(t.directory.id);
    expect(t.directory.object).toBe('file_service::directory');
    // sms
    expect(t.sharingCreated).toMatchObject({ campaign_id: t.campaign.id, accepted: 1, rejected: 1 });
    expect(t.sharing.id).toBe(t.sharingCreated.id);
    expect(t.sharing.recipients.map((r) => r.phone)).toEqual(['905321112233']);
    // links
    expect(t.shortened.fullUrl).toBe(`https://example.com/openapi-client/${label}`);
    expect(t.redirect).toEqual({ status: 302, location: t.shortened.fullUrl });
  });
});
