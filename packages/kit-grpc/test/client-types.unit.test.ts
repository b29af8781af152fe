import type { EchoRequest, EchoResponse, EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import type { HealthCheckRequest, HealthCheckResponse, HealthClient } from '@feedback/proto/grpc/health/v1/health';
import { describe, expectTypeOf, it } from 'vitest';
import type { GrpcClient, PromiseClient, UnaryCallOptions } from '../src/index.js';

// Checked by `tsc` (typecheck), not at run time.
describe('PromiseClient typing', () => {
  it('keeps only unary methods, with the request and response types of the client', () => {
    expectTypeOf<keyof PromiseClient<HealthClient>>().toEqualTypeOf<'check'>();
    expectTypeOf<PromiseClient<HealthClient>['check']>().toEqualTypeOf<
      (request: HealthCheckRequest, options?: UnaryCallOptions) => Promise<HealthCheckResponse>
    >();
    expectTypeOf<GrpcClient<EchoServiceClient>['echo']>().toEqualTypeOf<
      (request: EchoRequest, options?: UnaryCallOptions) => Promise<EchoResponse>
    >();
    expectTypeOf<GrpcClient<HealthClient>['raw']>().toEqualTypeOf<HealthClient>();
  });
});
