import { AppError } from '@feedback/kit-core';
import { createLogger, currentContext, runWithContext } from '@feedback/kit-core/runtime';
import { EchoServiceClient, EchoServiceService, type EchoServiceServer } from '@feedback/proto/feedback/testing/v1/echo';
import { describe, expect, it } from 'vitest';
import { createGrpcClient, startGrpcServer, unary } from '../src/index.js';

describe('unary()', () => {
  it('answers with the resolved value and maps a rejected AppError', async () => {
    const implementation: EchoServiceServer = {
      echo: unary(async (req) => {
        if (req.failKind) throw new AppError('permission_denied');
        return { message: req.message, requestId: currentContext()?.requestId ?? '', accountId: '' };
      }),
    };
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [{ definition: EchoServiceService, implementation }],
      logger: createLogger('kit-grpc-test', 'silent'),
    });
    const client = createGrpcClient(EchoServiceClient, server.address);
    try {
      const ok = await runWithContext({ requestId: 'req-unary' }, () => client.echo({ message: 'm', delayMs: 0, failKind: '' }));
      expect(ok).toEqual({ message: 'm', requestId: 'req-unary', accountId: '' });
      await expect(client.echo({ message: 'm', delayMs: 0, failKind: 'x' })).rejects.toMatchObject({
        kind: 'permission_denied',
        code: 13013,
      });
    } finally {
      client.close();
      await server.shutdown();
    }
  });
});
