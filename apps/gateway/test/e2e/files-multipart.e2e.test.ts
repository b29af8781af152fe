import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileClient } from './file-client.js';
import { ERROR_KEYS } from './stack-client.js';

const { api, auth, directory, uploadForm, objectKeys, openUploads, rawUpload } = fileClient();
const MiB = 1024 * 1024;

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('upload edge cases', { timeout: 60_000 }, () => {
  let owner: Awaited<ReturnType<typeof api.newAccount>>;
  let dirId: string;
  const filesPath = () => `/v2/file_service/directory/${dirId}/files`;
  const listed = async () => (await api.request('GET', filesPath(), { headers: auth(owner.apiToken) })).json.data as unknown[];

  beforeAll(async () => {
    owner = await api.newAccount('upload edges');
    dirId = await directory(owner, 'edges');
  });

  it('answers 400 naming the missing part: file or filename', async () => {
    const noFile = await uploadForm(owner.apiToken, dirId, [['filename', 'a.csv']]);
    expect(noFile.status).toBe(400);
    expect(noFile.json).toMatchObject({ code: 13000, errors: { file: 'is required' } });
    const noName = await uploadForm(owner.apiToken, dirId, [['file', new Blob(['x']), 'a.csv']]);
    expect(noName.status).toBe(400);
    expect(noName.json).toMatchObject({ code: 13000, errors: { filename: 'is required' } });
    const badName = await uploadForm(owner.apiToken, dirId, [
      ['filename', '..'],
      ['file', new Blob(['x']), 'a.csv'],
    ]);
    expect(badName.status).toBe(400);
    expect(Object.keys(badName.json.errors ?? {})).toEqual(['filename']);
    const twoFiles = await uploadForm(owner.apiToken, dirId, [
      ['filename', 'a'],
      ['file', new Blob(['x']), 'a'],
      ['file', new Blob(['y']), 'b'],
    ]);
    expect(twoFiles.status).toBe(400);
    expect(await listed()).toEqual([]);
  });

  it('answers 400 in the error shape for broken multipart bodies', async () => {
    const boundary = 'XyZ';
    const bodies = [
      `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\na.csv\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nunterminated`,
      'this is not multipart at all',
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n`,
    ];
    for (const body of bodies) {
      const res = await api.request('POST', filesPath(), {
        headers: { ...auth(owner.apiToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.code).toBe(13000);
    }
    for (const type of ['multipart/form-data; x=1', 'multipart/form-data']) {
      const noBoundary = await api.request('POST', filesPath(), { headers: { ...auth(owner.apiToken), 'content-type': type }, body: 'x' });
      expect(noBoundary.status, type).toBe(400);
    }
    expect(await listed()).toEqual([]);
  });

  it('answers 415 for a body that is not multipart/form-data', async () => {
    const res = await api.request('POST', filesPath(), {
      headers: { ...auth(owner.apiToken), 'content-type': 'application/json' },
      body: '{"file":"x"}',
    });
    expect(res.status).toBe(415);
    expect(res.json).toMatchObject({ code: 13007, errors: { 'content-type': 'must be multipart/form-data' } });
  });

  it('answers 413 / 13004 at once when the declared size is over the limit (1 GiB here), reading nothing', async () => {
    const res = await rawUpload(
      filesPath(),
      { ...auth(owner.apiToken), 'content-type': 'multipart/form-data; boundary=B', 'content-length': 2 * 1024 * MiB },
      (req) => req.write('--B\r\n'), // and never more: the answer must not wait for the body
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      error_message: 'Payload too large',
      code: 13004,
      errors: { file: 'must be at most 1073741824 bytes' },
    });
  });

  it('leaves no entry, no object and no open multipart upload when the client disconnects midway', async () => {
    const boundary = 'cut-here';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\ncut.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const sent = 20 * MiB; // more than two 8 MiB parts: the file service has a multipart upload open
    const res = await rawUpload(
      filesPath(),
      { ...auth(owner.apiToken), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + 64 * MiB },
      (req) => {
        req.write(head);
        let written = 0;
        const pump = () => {
          while (written < sent) {
            written += MiB;
            if (!req.write(randomBytes(MiB))) return void req.once('drain', pump);
          }
          setTimeout(() => req.destroy(), 300); // the client goes away with 44 MiB unsent
        };
        pump();
      },
    );
    expect(res.status).toBeUndefined();
    await waitFor('the aborted upload to be cleaned up', async () => (await openUploads(`${owner.id}/`)).length === 0);
    expect(await listed()).toEqual([]);
    expect(await objectKeys(`${owner.id}/`)).toEqual([]);
  });
});
