import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, repoPath } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoHandle } from '../src/index.js';
import { logger } from './stack.js';

const run = promisify(execFile);
const MONGO_SCRIPT = repoPath('infra/mongo.sh', import.meta.dirname);
const WRITERS = 16;
const ROUNDS = 3;

/**
 * "Acknowledged means durable" against the local database itself: a private SecantusDB (started
 * by the project's own infra script in a temporary directory, on a free port) is killed with
 * SIGKILL while 16 writers insert through connectMongo; after the restart every insert that was
 * acknowledged is there. With the driver's default write concern this loses a few of the last
 * acknowledged inserts in every round (SecantusDB flushes its journal after the commit answers).
 */
describe('connectMongo: acknowledged writes survive kill -9 of the database', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const server = (cmd: 'start' | 'stop') => run('bash', [MONGO_SCRIPT, cmd], { env, timeout: 120_000 });
  const pid = () => Number(readFileSync(join(dir, 'run', 'mongo.pid'), 'utf8').split(' ')[0]);
  const connect = (): Promise<MongoHandle> =>
    connectMongo({
      url: `mongodb://127.0.0.1:${env.MONGO_PORT}/?directConnection=true`,
      dbName: 'durability',
      logger,
      serverSelectionTimeoutMS: 2_000,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kit-stores-durability-'));
    env = { ...process.env, FEEDBACK_LOCAL_DIR: dir, MONGO_PORT: String(await freePort()), MONGO_CACHE_SIZE: '64M' };
    await server('start');
  }, 180_000);

  afterAll(async () => {
    await server('stop').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`${ROUNDS} rounds of ${WRITERS} writers and a SIGKILL: nothing acknowledged is lost`, async () => {
    const acknowledged: number[] = [];
    let next = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const mongo = await connect();
      const docs = mongo.db.collection<{ _id: number; round: number }>('acked');
      let writing = true;
      const writer = async () => {
        while (writing) {
          const id = next++;
          try {
            await docs.insertOne({ _id: id, round });
            acknowledged.push(id);
          } catch {
            return; // the server is gone: this insert was not acknowledged
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await new Promise((r) => setTimeout(r, 1_500));
      process.kill(pid(), 'SIGKILL');
      writing = false;
      await Promise.allSettled(writers);
      await mongo.client.close(true).catch(() => undefined);
      await server('start');
    }
    const mongo = await connect();
    try {
      const stored = new Set(
        (
          await mongo.db
            .collection<{ _id: number }>('acked')
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((d) => d._id),
      );
      expect(acknowledged.length, 'inserts acknowledged before the kills').toBeGreaterThan(ROUNDS * 50);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      await mongo.close();
    }
  }, 300_000);
});
