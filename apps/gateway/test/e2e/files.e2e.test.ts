import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileClient, ISO_MS_OFFSET } from './file-client.js';
import { ERROR_KEYS } from './stack-client.js';
import { publicError } from '../public-error.js';

const { api, auth, directory, uploadForm } = fileClient();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FILE_KEYS = [
  'created_at',
  'directory',
  'directory_id',
  'expired_at',
  'filename',
  'id',
  'object',
  'processing',
  'proxy_url',
  'url',
  'user_id',
];

type Account = Awaited<ReturnType<typeof api.newAccount>>;

describe('file directories', () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await api.newAccount('directories');
  });

  it('creates a directory with the single-item envelope, and lists it in the collection envelope', async () => {
    const res = await api.request('POST', `/v2/file_service/${owner.id}/directories`, {
      headers: { ...auth(owner.apiToken), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: 'sms-recipients' }),
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json)).toEqual(['object', 'url', 'data']);
    expect(res.json).toMatchObject({ object: 'file_service::directory', url: `/v2/file_service/${owner.id}` });
    const dir = res.json.data as Record<string, string>;
    expect(Object.keys(dir)).toEqual(['id', 'object', 'name', 'created_at']);
    expect(dir).toMatchObject({ object: 'file_service::directory', name: 'sms-recipients' });
    expect(dir.id).toMatch(UUID);
    expect(dir.created_at).toMatch(ISO_MS_OFFSET);

    const list = await api.request('GET', `/v2/file_service/${owner.id}/directories`, { headers: auth(owner.apiToken) });
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ object: 'collection', url: `/v2/file_service/${owner.id}/directories`, data: [dir] });
  });

  it('answers 409 / 13003 for a duplicate name, and exactly one of concurrent creates wins', async () => {
    const create = (name: string) =>
      api.request('POST', `/v2/file_service/${owner.id}/directories`, {
        headers: { ...auth(owner.apiToken), 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    expect((await create('dup')).status).toBe(201);
    const again = await create('dup');
    expect(again.status).toBe(409);
    expect(again.json).toEqual(publicError('Resource already exists', 13003, { name: 'a directory of this name already exists' }));

    const racing = await Promise.all(Array.from({ length: 8 }, () => create('raced')));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const list = await api.request('GET', `/v2/file_service/${owner.id}/directories`, { headers: auth(owner.apiToken) });
    expect((list.json.data as Array<{ name: string }>).filter((d) => d.name === 'raced')).toHaveLength(1);
  });

  it('validates the body, naming the field', async () => {
    for (const body of ['{}', '{"name": ""}', '{"name": 5}', '{"name": "x", "extra": 1}', '{"name": "tab\\there"}']) {
      const res = await api.request('POST', `/v2/file_service/${owner.id}/directories`, {
        headers: { ...auth(owner.apiToken), 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(res.json.code).toBe(13000);
      expect(Object.keys(res.json.errors ?? {}).join(), body).toMatch(/name|extra/);
    }
  });
});

describe('files', { timeout: 60_000 }, () => {
  let owner: Account;
  let dirId: string;
  beforeAll(async () => {
    owner = await api.newAccount('files');
    dirId = await directory(owner, 'uploads');
  });

  it('uploads, lists, shows, downloads (whole, ranges, HEAD) and deletes a file with exactly the documented fields', async () => {
    const csv = Buffer.from('phone,name\n+905321112233,Ayşe\n');
    const up = await uploadForm(owner.apiToken, dirId, [
      ['filename', 'customers.csv'],
      ['file', new Blob([csv], { type: 'text/csv' }), 'local-name.csv'],
    ]);
    expect(up.status).toBe(201);
    expect(Object.keys(up.json)).toEqual(['object', 'url', 'data']);
    expect(up.json).toMatchObject({ object: 'file_service::file', url: `/v2/file_service/directory/${dirId}/files` });
    const file = up.json.data!;
    expect(Object.keys(file).sort()).toEqual(FILE_KEYS);
    expect(file).toMatchObject({
      object: 'file_service::file',
      filename: 'customers.csv',
      directory: 'uploads',
      directory_id: dirId,
      user_id: owner.apiTokenId,
      expired_at: null,
      processing: null,
    });
    expect(file.id).toMatch(UUID);
    expect(file.created_at).toMatch(ISO_MS_OFFSET);
    const url = new URL(String(file.url));
    expect(url.origin).toBe(api.baseUrl);
    expect(url.pathname).toMatch(/^\/public\/v2\/storage\/blobs\/[A-Za-z0-9_-]{43}\/customers\.csv$/);
    expect(file.proxy_url).toBe(file.url);

    const list = await api.request('GET', `/v2/file_service/directory/${dirId}/files`, { headers: auth(owner.apiToken) });
    expect(list.json).toEqual({ object: 'collection', url: `/v2/file_service/directory/${dirId}/files`, data: [file] });
    const detail = await api.request('GET', `/v2/file_service/directory/${dirId}/files/${file.id}`, { headers: auth(owner.apiToken) });
    expect(detail.json).toEqual({ object: 'file_service::file', url: `/v2/file_service/directory/${dirId}/files/${file.id}`, data: file });

    const get = await fetch(String(file.url)); // no token: the blob token is the secret
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/csv');
    expect(get.headers.get('content-length')).toBe(String(csv.length));
    expect(get.headers.get('accept-ranges')).toBe('bytes');
    expect(get.headers.get('etag')).toBe(`"${createHash('sha256').update(csv).digest('hex')}"`);
    expect(get.headers.get('content-disposition')).toContain('filename="customers.csv"');
    expect(Buffer.from(await get.arrayBuffer()).equals(csv)).toBe(true);

    const part = await fetch(String(file.url), { headers: { range: 'bytes=6-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 6-9/${csv.length}`);
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('name');
    const tail = await fetch(String(file.url), { headers: { range: 'bytes=-5' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(csv.subarray(csv.length - 5))).toBe(true);
    const outside = await fetch(String(file.url), { headers: { range: `bytes=${csv.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${csv.length}`);
    const head = await fetch(String(file.url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(csv.length));

    const del = await api.request('DELETE', `/v2/file_service/directory/${dirId}/files/${file.id}`, { headers: auth(owner.apiToken) });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ object: 'file_service::file', url: `/v2/file_service/directory/${dirId}/files/${file.id}`, data: file });
    expect((await fetch(String(file.url))).status).toBe(404);
    const gone = await api.request('GET', `/v2/file_service/directory/${dirId}/files/${file.id}`, { headers: auth(owner.apiToken) });
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ code: 13002, errors: { file_entry_id: file.id } });
    expect(
      (await api.request('DELETE', `/v2/file_service/directory/${dirId}/files/${file.id}`, { headers: auth(owner.apiToken) })).status,
    ).toBe(404);
  });

  it('takes the filename field after the file part too, sanitizing it', async () => {
    const up = await uploadForm(owner.apiToken, dirId, [
      ['file', new Blob(['{}']), 'x.json'],
      ['filename', '../../etc/re\u0007port.json'],
    ]);
    expect(up.status).toBe(201);
    expect(up.json.data).toMatchObject({ filename: 'report.json' });
    expect(String(up.json.data!.url)).toMatch(/\/report\.json$/);
    const get = await fetch(String(up.json.data!.url));
    expect(get.headers.get('content-type')).toBe('application/json');
    expect(await get.text()).toBe('{}');
  });

  it('serves every filename it accepts: 200 bytes is served, 201 is refused at upload', async () => {
    for (const name of ['x'.repeat(196) + '.csv', '😀'.repeat(50)]) {
      const up = await uploadForm(owner.apiToken, dirId, [
        ['filename', name],
        ['file', new Blob(['a']), 'a'],
      ]);
      expect(up.status).toBe(201);
      const get = await fetch(String(up.json.data!.url));
      expect(get.status, name).toBe(200);
      expect(await get.text()).toBe('a');
    }
    const tooLong = await uploadForm(owner.apiToken, dirId, [
      ['filename', 'x'.repeat(197) + '.csv'],
      ['file', new Blob(['a']), 'a'],
    ]);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({ code: 13000, errors: { filename: 'must be at most 200 bytes' } });
  });

  it('streams a larger file intact', async () => {
    const data = randomBytes(12 * 1024 * 1024 + 5);
    const up = await uploadForm(owner.apiToken, dirId, [
      ['filename', 'big.bin'],
      ['file', new Blob([data]), 'big.bin'],
    ]);
    expect(up.status).toBe(201);
    const back = Buffer.from(await (await fetch(String(up.json.data!.url))).arrayBuffer());
    expect(back.length).toBe(data.length);
    expect(back.equals(data)).toBe(true);
  });

  it('answers 404 naming directory_id for an unknown directory, on every route', async () => {
    const unknown = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    const calls = [
      api.request('GET', `/v2/file_service/directory/${unknown}/files`, { headers: auth(owner.apiToken) }),
      api.request('GET', `/v2/file_service/directory/${unknown}/files/${unknown}`, { headers: auth(owner.apiToken) }),
      api.request('DELETE', `/v2/file_service/directory/${unknown}/files/${unknown}`, { headers: auth(owner.apiToken) }),
      uploadForm(owner.apiToken, unknown, [
        ['filename', 'a.txt'],
        ['file', new Blob(['a']), 'a.txt'],
      ]),
      api.request('GET', '/v2/file_service/directory/not-an-id/files', { headers: auth(owner.apiToken) }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({
        error_message: 'Requested resource not found!',
        data: 'Requested resource not found!',
        code: 13002,
      });
      expect(Object.keys(res.json.errors ?? {})).toEqual(['directory_id']);
    }
  });
});

describe("another account's token never sees data", () => {
  let owner: Account;
  let intruder: Account;
  let dirId: string;
  let fileId: string;
  beforeAll(async () => {
    owner = await api.newAccount('victim');
    intruder = await api.newAccount('intruder');
    dirId = await directory(owner, 'private');
    fileId = String(
      (
        await uploadForm(owner.apiToken, dirId, [
          ['filename', 'secret.csv'],
          ['file', new Blob(['secret']), 's.csv'],
        ])
      ).json.data!.id,
    );
  });

  it("answers 403 for the owner's account_id and 404 for the owner's directory and file, on every route", async () => {
    const h = auth(intruder.apiToken);
    const json = { ...h, 'content-type': 'application/json' };
    const forbidden = await Promise.all([
      api.request('POST', `/v2/file_service/${owner.id}/directories`, { headers: json, body: '{"name":"mine now"}' }),
      api.request('GET', `/v2/file_service/${owner.id}/directories`, { headers: h }),
    ]);
    for (const res of forbidden) {
      expect(res.status).toBe(403);
      expect(res.json).toEqual(publicError('Permission denied', 13013, null));
    }
    const hidden = await Promise.all([
      api.request('GET', `/v2/file_service/directory/${dirId}/files`, { headers: h }),
      api.request('GET', `/v2/file_service/directory/${dirId}/files/${fileId}`, { headers: h }),
      api.request('DELETE', `/v2/file_service/directory/${dirId}/files/${fileId}`, { headers: h }),
      uploadForm(intruder.apiToken, dirId, [
        ['filename', 'planted.csv'],
        ['file', new Blob(['x']), 'p.csv'],
      ]),
    ]);
    for (const res of hidden) {
      expect(res.status).toBe(404);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(JSON.stringify(res.json)).not.toContain('secret');
    }
    // Nothing changed for the owner.
    const list = await api.request('GET', `/v2/file_service/directory/${dirId}/files`, { headers: auth(owner.apiToken) });
    expect((list.json.data as Array<{ id: string }>).map((f) => f.id)).toEqual([fileId]);
    const dirs = await api.request('GET', `/v2/file_service/${owner.id}/directories`, { headers: auth(owner.apiToken) });
    expect((dirs.json.data as unknown[]).length).toBe(1);
  });

  it('answers 401 / 13001 without a valid token and 403 / 13013 with an integration token, whatever the body', async () => {
    const routes: Array<[string, string]> = [
      ['POST', `/v2/file_service/${owner.id}/directories`],
      ['GET', `/v2/file_service/${owner.id}/directories`],
      ['POST', `/v2/file_service/directory/${dirId}/files`],
      ['GET', `/v2/file_service/directory/${dirId}/files`],
      ['GET', `/v2/file_service/directory/${dirId}/files/${fileId}`],
      ['DELETE', `/v2/file_service/directory/${dirId}/files/${fileId}`],
    ];
    for (const [method, path] of routes) {
      for (const headers of [{}, { authorization: 'Token token="fbk_api_nope"' }, { authorization: 'Token token= fbk_api_nope' }] as Record<
        string,
        string
      >[]) {
        const res = await api.request(method, path, { headers });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.json.code).toBe(13001);
      }
      for (const authorization of [`Bearer ${owner.integrationToken}`, `Token token= ${owner.integrationToken}`]) {
        const res = await api.request(method, path, { headers: { authorization } });
        expect(res.status, `${method} ${path} ${authorization.slice(0, 12)}`).toBe(403);
        expect(res.json).toEqual(publicError('Permission denied', 13013, null));
      }
    }
    // Nothing was deleted by the refused calls; the owner's token reads it, also as `Token token= <TOKEN>`.
    const list = await api.request('GET', `/v2/file_service/directory/${dirId}/files`, {
      headers: { authorization: `Token token= ${owner.apiToken}` },
    });
    expect(list.status).toBe(200);
    expect((list.json.data as Array<{ id: string }>).map((f) => f.id)).toEqual([fileId]);
  });
});
