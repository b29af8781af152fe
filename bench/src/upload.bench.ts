import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createS3 } from '@feedback/kit-stores';
import { pidOf, rssMiB } from './process-stats.js';

const MiB = 1024 * 1024;
const CHUNK = randomBytes(64 * 1024);

/** `size` bytes made on demand, 64 KiB at a time: nothing of the upload is held in memory. */
function generate(size: number): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(CHUNK.length, left);
      left -= n;
      this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    },
  });
}

/** Peak RSS growth (MiB) of the named processes while `fn` runs, sampled every 50 ms. */
async function rssGrowth<T>(names: string[], fn: () => Promise<T>) {
  const pids = names.map((n) => [n, pidOf(n)] as const).filter((p): p is readonly [string, number] => p[1] !== undefined);
  const start = pids.map(([, pid]) => rssMiB(pid));
  const peak = [...start];
  const sample = () => pids.forEach(([, pid], i) => (peak[i] = Math.max(peak[i]!, rssMiB(pid))));
  const timer = setInterval(sample, 50);
  try {
    const result = await fn();
    sample();
    return { result, growth: Object.fromEntries(pids.map(([name], i) => [name, peak[i]! - start[i]!])) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * POST /v2/file_service/directory/{id}/files (HTTP multipart → gateway → gRPC client stream →
 * file service → S3) against the floor under it: a minio-client putObject of the same bytes into
 * the same S3 server, alternately. Reports MB/s of each, their ratio, and how much the gateway's
 * and the file service's resident memory grew during the uploads.
 */
export async function uploadBench() {
  const size = Number(process.env.BENCH_UPLOAD_MIB ?? 512) * MiB;
  const rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 2);
  const stack = readStackFile();
  const base = stack.base_url!;
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; token: string; data: { id: string } };
  };
  const adminHeaders = { authorization: `Bearer ${stack.admin_token}` };
  const account = await call('POST', '/admin/v1/accounts', adminHeaders, { name: 'bench uploads' });
  const token = (await call('POST', `/admin/v1/accounts/${account.id}/tokens`, adminHeaders, { kind: 'api', name: 'bench' })).token;
  const apiHeaders = { authorization: `Token token=${token}` };
  const directoryId = (await call('POST', `/v2/file_service/${account.id}/directories`, apiHeaders, { name: 'bench' })).data.id;

  const s3 = createS3({
    endpoint: stack.s3.endpoint,
    accessKey: stack.s3.access_key,
    secretKey: stack.s3.secret_key,
    region: stack.s3.region,
    logger: createLogger('bench', 'silent'),
  });
  const bucket = process.env.S3_BUCKET ?? 'feedback-files';
  const directKeys: string[] = [];
  const uploaded: string[] = [];

  const direct = async (bytes: number) => {
    const key = `bench-direct/${randomBytes(8).toString('hex')}`;
    directKeys.push(key);
    await s3.putObject(bucket, key, generate(bytes), bytes);
  };
  const viaApi = (bytes: number) =>
    new Promise<void>((resolve, reject) => {
      const boundary = `bench${randomBytes(8).toString('hex')}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\nbench.bin\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const req = request(`${base}/v2/file_service/directory/${directoryId}/files`, {
        method: 'POST',
        headers: {
          ...apiHeaders,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes + tail.length,
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          if (res.statusCode !== 201) return reject(new Error(`upload: ${res.statusCode} ${body}`));
          uploaded.push((JSON.parse(body) as { data: { id: string } }).data.id);
          resolve();
        });
      });
      req.on('error', reject);
      req.write(head);
      pipeline(generate(bytes), req, { end: false }).then(() => req.end(tail), reject);
    });

  const timed = async (fn: () => Promise<void>) => {
    const started = performance.now();
    await fn();
    return size / MiB / ((performance.now() - started) / 1000);
  };

  try {
    await direct(16 * MiB); // warm-up: connections, lazily loaded code
    await viaApi(16 * MiB);
    const directMBs: number[] = [];
    const apiMBs: number[] = [];
    const growth: Record<string, number> = { gateway: 0, file: 0 };
    for (let i = 0; i < rounds; i++) {
      directMBs.push(await timed(() => direct(size)));
      const api = await rssGrowth(['gateway', 'file'], () => timed(() => viaApi(size)));
      apiMBs.push(api.result);
      for (const [name, mib] of Object.entries(api.growth)) growth[name] = Math.max(growth[name] ?? 0, mib);
    }
    // Per side: all bytes over all time (the harmonic mean of the runs), robust to one slow run.
    const overall = (xs: number[]) => xs.length / xs.reduce((s, x) => s + 1 / x, 0);
    const ratio = overall(apiMBs) / overall(directMBs);
    console.log(`\n== upload (${size / MiB} MiB per upload, rounds=${rounds}, alternating)`);
    console.log(`${'side'.padEnd(44)} ${'MB/s overall'.padStart(14)}  runs`);
    console.log(
      `${'direct minio-client putObject'.padEnd(44)} ${overall(directMBs).toFixed(1).padStart(14)}  ${directMBs.map((x) => x.toFixed(1)).join(' ')}`,
    );
    console.log(
      `${'HTTP multipart → gateway → gRPC → file → S3'.padEnd(44)} ${overall(apiMBs).toFixed(1).padStart(14)}  ${apiMBs.map((x) => x.toFixed(1)).join(' ')}`,
    );
    console.log(`ratio (API/direct MB/s): ${ratio.toFixed(3)}  (goal ≥ 0.6)`);
    console.log(
      `peak RSS growth during API uploads: gateway ${growth.gateway!.toFixed(1)} MiB, file service ${growth.file!.toFixed(1)} MiB  (goal ≤ 128 each)`,
    );
    const dir = join(process.cwd(), '..', '.local', 'bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'upload.json'),
      JSON.stringify(
        { name: 'upload', sizeMiB: size / MiB, rounds, directMBs, apiMBs, ratio, rssGrowthMiB: growth, at: new Date().toISOString() },
        null,
        2,
      ),
    );
    return { ratio, growth };
  } finally {
    if (directKeys.length) await s3.removeObjects(bucket, directKeys).catch(() => undefined);
    for (const id of uploaded)
      await fetch(`${base}/v2/file_service/directory/${directoryId}/files/${id}`, { method: 'DELETE', headers: apiHeaders }).catch(
        () => undefined,
      );
  }
}
