import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateServiceConfig } from '@grpc/grpc-js/build/src/service-config.js';
import { FileServiceService } from '@feedback/proto/feedback/file/v1/file';
import { SurveyServiceService } from '@feedback/proto/feedback/survey/v1/survey';
import { EchoServiceService } from '@feedback/proto/feedback/testing/v1/echo';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { balancedChannelOptions, CALL_POLICIES, RETRY_POLICY, retriedMethods, serviceConfigFor } from '../src/index.js';
import { serviceNameOf } from '../src/call-policy.js';

const PROTO_DIR = fileURLToPath(new URL('../../../proto/feedback', import.meta.url));

/** "feedback.<pkg>.v1.<Service>" of every service declared in proto/feedback/*\/v1/*.proto. */
function protoServices(): string[] {
  const names: string[] = [];
  for (const pkg of readdirSync(PROTO_DIR)) {
    const dir = `${PROTO_DIR}/${pkg}/v1`;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.proto'))) {
      const text = readFileSync(`${dir}/${file}`, 'utf8');
      const pkgName = /^package\s+([\w.]+);/m.exec(text)?.[1];
      for (const m of text.matchAll(/^service\s+(\w+)\s*\{/gm)) names.push(`${pkgName}.${m[1]}`);
    }
  }
  return names.sort();
}

describe('call policy', () => {
  it('classifies every method of every service in proto/ (a new service or RPC must say whether it is retried)', () => {
    const classified = CALL_POLICIES.map((p) => serviceNameOf(p.definition)!);
    expect(classified.filter((n) => n.startsWith('feedback.')).sort()).toEqual(protoServices());
    for (const p of CALL_POLICIES) expect(Object.keys(p.methods).sort()).toEqual(Object.keys(p.definition).sort());
  });

  it('retries the reads only (survey: no activation, no answers, no channel creation)', () => {
    expect(retriedMethods(SurveyServiceService).map((n) => n.method)).toEqual([
      'DescribeChannel',
      'ListChannels',
      'ListActiveSurveys',
      'GetSurveyPage',
      'ListResponses',
      'GetResponse',
      'GetNpsSummary',
      'GetSurveyLinkStates',
      'GetDataErasure',
    ]);
    // And the writes whose repeat changes nothing: a binding set again, the same outcome reported again.
    expect(retriedMethods(FileServiceService).map((n) => n.method)).toEqual([
      'ListDirectories',
      'ListFiles',
      'GetFile',
      'ReadBlob',
      'SetWorkflowBinding',
      'RecordProcessing',
    ]);
    for (const n of retriedMethods(SurveyServiceService)) expect(n.service).toBe('feedback.survey.v1.SurveyService');
  });

  it('builds a service config grpc-js accepts: round_robin, the retried methods under one retry policy on UNAVAILABLE', () => {
    const config = serviceConfigFor(SurveyServiceService);
    expect(validateServiceConfig(JSON.parse(JSON.stringify(config)))).toEqual(config);
    expect(config.loadBalancingConfig).toEqual([{ round_robin: {} }]);
    expect(config.methodConfig).toHaveLength(1);
    expect(config.methodConfig[0]!.retryPolicy).toEqual({
      maxAttempts: 3,
      initialBackoff: '0.05s',
      maxBackoff: '0.5s',
      backoffMultiplier: 2,
      retryableStatusCodes: ['UNAVAILABLE'],
    });
    expect(RETRY_POLICY.maxAttempts).toBeLessThanOrEqual(5); // grpc-js caps attempts at 5
    expect(config.retryThrottling).toEqual({ maxTokens: 100, tokenRatio: 0.1 });
  });

  it('a service it does not know is balanced and never retried', () => {
    const unknown: ServiceDefinition = { doIt: { ...EchoServiceService.echo, path: '/other.v1.Other/DoIt' } };
    expect(serviceConfigFor(unknown)).toEqual({ loadBalancingConfig: [{ round_robin: {} }], methodConfig: [] });
    expect(validateServiceConfig(serviceConfigFor(unknown))).toEqual(serviceConfigFor(unknown));
  });

  it('the channel options carry that config and ignore a service config from DNS', () => {
    const opts = balancedChannelOptions(SurveyServiceService);
    expect(JSON.parse(opts['grpc.service_config'])).toEqual(serviceConfigFor(SurveyServiceService));
    expect(opts['grpc.service_config_disable_resolution']).toBe(1);
  });
});
