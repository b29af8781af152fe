import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createLogger } from '@feedback/kit-core/runtime';
import type { Directory } from '../../src/domain/directory.js';
import type { FileEntry } from '../../src/domain/file-entry.js';
import type { FileServiceDeps, ProcessingRecord } from '../../src/domain/ports.js';

/** In-memory ports with the same atomicity as the real ones: an insert of a taken key fails. */
export function memoryDeps(over: Partial<FileServiceDeps> = {}) {
  const directories = new Map<string, Directory>();
  const files = new Map<string, FileEntry>();
  const records = new Map<string, ProcessingRecord & { accountId: string }>();
  const leases = new Map<string, { fileId: string; attempt: number; until: Date; done: boolean }>();
  const expiryDone = new Set<string>();
  const sweep = new Map<string, { objectKey: string; notBefore: Date }>();
  const outbox = new Map<string, Date>();
  const objects = new Map<string, Buffer>();
  const published: Array<{ topic: 'uploaded' | 'expired' | 'processed'; eventId: string; file: FileEntry }> = [];
  const processedDue = new Set<string>();
  let now = new Date('2026-11-22T09:30:00.000Z');
  let n = 0;
  const newer = (a: FileEntry, b: FileEntry) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id > a.id ? 1 : -1);

  const deps: FileServiceDeps = {
    directories: {
      async insert(d) {
        if ([...directories.values()].some((x) => x.accountId === d.accountId && x.name === d.name)) return 'duplicate';
        directories.set(d.id, d);
        return 'created';
      },
      findById: async (accountId, id) => (directories.get(id)?.accountId === accountId ? directories.get(id)! : null),
      list: async (accountId) => [...directories.values()].filter((d) => d.accountId === accountId),
      async setBound(d, filename, bound) {
        const dir = directories.get(d.id)!;
        const names = new Set(dir.boundNames ?? []);
        if (bound) names.add(filename);
        else names.delete(filename);
        directories.set(d.id, { ...dir, boundNames: [...names] });
      },
    },
    files: {
      async insert(f) {
        files.set(f.id, f);
      },
      findById: async (a, d, id) => {
        const f = files.get(id);
        return f && f.accountId === a && f.directoryId === d ? f : null;
      },
      findAny: async (id) => files.get(id) ?? null,
      findByBlobToken: async (t) => [...files.values()].find((f) => f.blobToken === t) ?? null,
      list: async (a, d) => [...files.values()].filter((f) => f.accountId === a && f.directoryId === d).sort(newer),
      listByName: async (q) =>
        [...files.values()]
          .filter(
            (f) =>
              f.accountId === q.accountId &&
              f.directoryId === q.directoryId &&
              f.filename === q.filename &&
              !f.expiredAt &&
              f.createdAt > q.notBefore,
          )
          .sort(newer),
      remove: async (id) => files.delete(id),
      async recordProcessing(id, processing) {
        const f = files.get(id);
        if (!f || f.processing?.status === 'processed' || f.processing?.status === 'failed') return false;
        files.set(id, { ...f, processing });
        processedDue.add(id);
        return true;
      },
      processedEventsDue: async (before, limit) =>
        [...processedDue]
          .map((id) => files.get(id)!)
          .filter((f) => f && f.processing!.processedAt! <= before)
          .slice(0, limit),
      async processedEventSent(id) {
        processedDue.delete(id);
      },
    },
    processing: {
      async mark(file, state, by) {
        if (records.has(file.id)) return false;
        records.set(file.id, { state, claimedBy: state === 'processing' ? by : null, accountId: file.accountId });
        return true;
      },
      states: async (ids) => new Map(ids.filter((id) => records.has(id)).map((id) => [id, records.get(id)!])),
      async complete(accountId, fileId, claimer, outcome) {
        const r = records.get(fileId);
        if (!r || r.accountId !== accountId || r.state !== 'processing' || r.claimedBy !== claimer) return false;
        r.state = outcome;
        return true;
      },
    },
    expiry: {
      listDue: async (cutoff, limit) =>
        [...files.values()]
          .filter((f) => !expiryDone.has(f.id) && f.createdAt <= cutoff)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
          .slice(0, limit),
      async lease(fileId, _holder, at, until) {
        const mine = [...leases.values()].filter((l) => l.fileId === fileId).sort((a, b) => b.attempt - a.attempt)[0];
        if (mine && (mine.done || mine.until > at)) return null;
        const id = `${fileId}:${(mine?.attempt ?? 0) + 1}`;
        if (leases.has(id)) return null;
        leases.set(id, { fileId, attempt: (mine?.attempt ?? 0) + 1, until, done: false });
        return id;
      },
      async setExpired(id, at) {
        const f = files.get(id);
        if (!f) return null;
        if (!f.expiredAt) files.set(id, { ...f, expiredAt: at });
        return files.get(id)!;
      },
      async finish(fileId, leaseId) {
        expiryDone.add(fileId);
        leases.get(leaseId)!.done = true;
      },
    },
    sweepList: {
      async add(fileId, objectKey, notBefore) {
        if (!sweep.has(fileId)) sweep.set(fileId, { objectKey, notBefore });
      },
      async drop(fileId) {
        sweep.delete(fileId);
      },
      due: async (at) =>
        [...sweep.entries()].filter(([, e]) => e.notBefore <= at).map(([fileId, e]) => ({ fileId, objectKey: e.objectKey })),
    },
    outbox: {
      async add(fileId, at) {
        outbox.set(fileId, at);
      },
      async drop(fileId) {
        outbox.delete(fileId);
      },
      due: async (before) => [...outbox.entries()].filter(([, at]) => at <= before).map(([id]) => id),
    },
    blobs: {
      async put(key, bytes: Readable, opts) {
        const chunks: Buffer[] = [];
        for await (const c of bytes) chunks.push(c as Buffer);
        const body = Buffer.concat(chunks);
        if (opts.size !== undefined && opts.size !== body.length) throw new Error('size mismatch');
        objects.set(key, body);
        return { size: body.length };
      },
      read: async () => null,
      async remove(key) {
        objects.delete(key);
      },
      abortStaleUploads: async () => 0,
    },
    events: {
      async uploaded(file) {
        published.push({ topic: 'uploaded', eventId: `file.uploaded:${file.id}`, file });
      },
      async expired(file) {
        published.push({ topic: 'expired', eventId: `file.expired:${file.id}`, file });
      },
      async processed(file) {
        published.push({ topic: 'processed', eventId: `file.processed:${file.id}`, file });
      },
    },
    clock: { now: () => now },
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    newBlobToken: () => createHash('sha256').update(String(++n)).digest('base64url'),
    logger: createLogger('file-test', 'silent'),
    maxUploadBytes: 1024,
    retentionMs: 7 * 24 * 3600_000,
    ...over,
  };

  return {
    deps,
    state: { directories, files, records, sweep, outbox, objects, published, processedDue },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}
