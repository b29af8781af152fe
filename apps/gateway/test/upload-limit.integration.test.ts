import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile, s3Settings } from '@feedback/dev-stack';
import { createS3 } from '@feedback/kit-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFileService } from '../src/api/files/files.client.js';
import { filesFeature } from '../src/api/files/files.feature.js';
import { tokenWithSecret } from './api-tokens.js';
import { listenLocally, testApi } from './listeners.js';

const LIMIT = 1024 * 1024;
const FILE_ADDR = readStackFile().grpc.file;
const BUCKET = process.env.S3_BUCKET ?? 'feedback-files';

/** Sends `total` bytes of file content chunked (no Content-Length), so only the stream can tell its size. */
function chunkedUpload(url: string, token: string, total: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const boundary = 'lim';
    const req = request(
      url,
      { method: 'POST', headers: { authorization: `Token token=${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` } },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
        res.on('error', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', (err) => setTimeout(() => reject(err), 500)); // a response may still be on its way
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\nlimit.bin\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="limit.bin"\r\n\r\n`);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(64 * 1024, total - sent);
        sent += n;
        if (!req.write(Buffer.alloc(n, 1))) return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

// The gateway built on port 0 with its own (low) MAX_UPLOAD_BYTES, in front of the running file
// service: the limit is enforced on the stream itself, without a Content-Length to go by.
describe('upload size limit on the stream', () => {
  const logger = createLogger('gateway-test', 'silent');
  const stack = readStackFile();
  const accountId = `acc-${randomUUID()}`;
  const { secret, token } = tokenWithSecret({ id: 'tok-limit', accountId, kind: 'api', name: 't' });
  const files = connectFileService(FILE_ADDR, { deadlineMs: 5_000, streamDeadlineMs: 60_000, logger });
  const s3 = createS3({
    ...s3Settings(stack),
    logger,
  });
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    const dir = (await files.port.createDirectory({ accountId, name: 'limits' })).directory!;
    app = await testApi({
      tokens: { findByHash: async (h) => (h === token.hash ? token : null) },
      features: [filesFeature({ files: files.port, publicBaseUrl: 'https://files.example.com/', maxUploadBytes: LIMIT })],
    });
    url = `${await listenLocally(app)}/v2/file_service/directory/${dir.id}/files`;
  });
  afterAll(async () => {
    await app?.close();
    files.close();
  });

  it('stores a file of exactly the limit, with URLs under the configured public base', async () => {
    const res = await chunkedUpload(url, secret, LIMIT);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).data.url).toMatch(/^https:\/\/files\.example\.com\/public\/v2\/storage\/blobs\/[\w-]{43}\/limit\.bin$/);
  });

  it('answers 413 / 13004 one byte over it, and keeps nothing', async () => {
    const before = (
      await files.port.listFiles({ accountId, directoryId: (await files.port.listDirectories({ accountId })).directories[0]!.id })
    ).files;
    const res = await chunkedUpload(url, secret, LIMIT + 1);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      error_message: 'Payload too large',
      data: 'Payload too large',
      code: 13004,
      errors: { file: `must be at most ${LIMIT} bytes` },
    });
    const after = (await files.port.listFiles({ accountId, directoryId: before[0]!.directoryId })).files;
    expect(after.map((f) => f.id)).toEqual(before.map((f) => f.id));
    const keys: string[] = [];
    for await (const o of s3.listObjectsV2(BUCKET, `${accountId}/`, true)) if (o.name) keys.push(o.name);
    expect(keys).toEqual(before.map((f) => `${accountId}/${f.id}`));
  }, 30_000);
});
