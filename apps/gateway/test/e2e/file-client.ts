import { request as httpRequest } from 'node:http';
import { createS3 } from '@feedback/kit-stores';
import { createLogger } from '@feedback/kit-core/runtime';
import { s3Settings } from '@feedback/dev-stack';
import { stackClient } from './stack-client.js';

/** What the file e2e tests share: an account with a directory, multipart bodies, S3 inspection. */
export function fileClient() {
  const api = stackClient();
  const bucket = process.env.S3_BUCKET ?? 'feedback-files';
  const s3 = createS3({
    ...s3Settings(api.stack),
    logger: createLogger('files-e2e', 'silent'),
  });
  const auth = (token: string) => ({ authorization: `Token token="${token}"` });

  async function directory(account: { id: string; apiToken: string }, name = `dir-${Math.random().toString(36).slice(2)}`) {
    const res = await api.request('POST', `/v2/file_service/${account.id}/directories`, {
      headers: { ...auth(account.apiToken), 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    if (res.status !== 201) throw new Error(`directory: ${res.status} ${res.text}`);
    return (res.json.data as Record<string, string>).id!;
  }

  /** multipart/form-data through fetch's FormData: parts in the given order. */
  async function uploadForm(token: string, directoryId: string, parts: Array<['file', Blob, string] | ['filename', string]>) {
    const form = new FormData();
    for (const p of parts) {
      if (p[0] === 'file') form.append('file', p[1], p[2]);
      else form.append('filename', p[1]);
    }
    const res = await fetch(`${api.baseUrl}/v2/file_service/directory/${directoryId}/files`, {
      method: 'POST',
      headers: auth(token),
      body: form,
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      json: JSON.parse(text) as Record<string, unknown> & { data?: Record<string, unknown>; errors?: Record<string, string> },
    };
  }

  async function objectKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const o of s3.listObjectsV2(bucket, prefix, true)) if (o.name) keys.push(o.name);
    return keys;
  }

  /** Open multipart uploads; one aborted while being listed shows as '(aborting)' (minio-js lists parts too). */
  async function openUploads(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    try {
      for await (const u of s3.listIncompleteUploads(bucket, prefix, true)) keys.push(u.key);
    } catch (err) {
      if ((err as { code?: string }).code !== 'NoSuchUpload') throw err;
      keys.push('(aborting)');
    }
    return keys;
  }

  /**
   * A raw request whose body the test writes itself (to declare a size it never sends, or to
   * disconnect midway). Resolves with the response, if one came.
   */
  function rawUpload(path: string, headers: Record<string, string | number>, write: (req: ReturnType<typeof httpRequest>) => void) {
    return new Promise<{ status?: number; body: string; error?: Error }>((resolve) => {
      const req = httpRequest(`${api.baseUrl}${path}`, { method: 'POST', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode, body }));
        res.on('error', (error) => resolve({ status: res.statusCode, body, error }));
      });
      req.on('error', (error) => resolve({ body: '', error }));
      write(req);
    });
  }

  return { api, auth, bucket, directory, uploadForm, objectKeys, openUploads, rawUpload };
}

export const ISO_MS_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
