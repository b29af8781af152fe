import { createGrpcClient, startGrpcServer, type RunningGrpcServer } from '@feedback/kit-grpc';
import { ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { ShortenerServiceClient, ShortenerServiceService } from '@feedback/proto/feedback/shortener/v1/shortener';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClickTallyRepository } from '../src/adapters/mongo/click-tally.repository.js';
import { MongoDomainRepository } from '../src/adapters/mongo/domain.repository.js';
import { shortenerIndexes } from '../src/adapters/mongo/indexes.js';
import { MongoLinkRepository } from '../src/adapters/mongo/link.repository.js';
import { countClicks } from '../src/domain/click-counting.js';
import { newShortCode } from '../src/domain/short-code.js';
import { MongoLinkHourRepository } from '../src/adapters/mongo/link-hours.repository.js';
import { shortenerHandlers } from '../src/grpc/shortener.handlers.js';
import { dropTestDb, logger, openTestDb, uniq } from './stack.js';

// CountClickedLinks (a sharing's funnel) on the real MongoDB-compatible server.
describe('CountClickedLinks over gRPC', () => {
  let mongo: MongoHandle;
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createGrpcClient<ShortenerServiceClient>>;
  let tallies: MongoClickTallyRepository;
  const [account, other] = [uniq('acc'), uniq('acc')];

  beforeAll(async () => {
    mongo = await openTestDb('shortener_clicked');
    await ensureIndexes(mongo.db, shortenerIndexes);
    tallies = new MongoClickTallyRepository(mongo.db);
    const deps = {
      links: new MongoLinkRepository(mongo.db),
      domains: new MongoDomainRepository(mongo.db),
      tallies,
      clock: { now: () => new Date() },
      newCode: () => newShortCode(7),
      settings: { shortBase: 'http://127.0.0.1:8081', maxUrlLength: 2048 },
    };
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [
        { definition: ShortenerServiceService, implementation: shortenerHandlers(deps, { hours: new MongoLinkHourRepository(mongo.db) }) },
      ],
    });
    client = createGrpcClient(ShortenerServiceClient, server.address, { deadlineMs: 5000 });
  });

  afterAll(async () => {
    client?.close();
    await server?.shutdown();
    await dropTestDb(mongo);
  });

  const shorten = async (accountId: string, n: number) =>
    (await client.shortenMany({ accountId, urls: Array.from({ length: n }, (_, i) => `https://survey.example/s/${i}`) })).links.map(
      (l) => l.code,
    );
  const click = (codes: string[], offset: number) =>
    countClicks(
      tallies,
      0,
      codes.map((code, i) => ({ code, offset: offset + i, clicks: 1 })),
    );

  it("counts the account's codes followed at least once; another account's, unknown and malformed codes count 0", async () => {
    const mine = await shorten(account, 4);
    const theirs = await shorten(other, 2);
    await click([mine[0]!, mine[1]!, mine[1]!, ...theirs], 100);

    const count = async (accountId: string, codes: string[]) => (await client.countClickedLinks({ accountId, codes })).clicked;
    expect(await count(account, mine)).toBe(2);
    // A code given twice counts once.
    expect(await count(account, [...mine, mine[0]!])).toBe(2);
    expect(await count(account, [...mine, ...theirs, 'Unknown1', 'not a code!', ''])).toBe(2);
    expect(await count(other, mine)).toBe(0);
    expect(await count(other, theirs)).toBe(2);
    expect(await count(account, [])).toBe(0);
  });

  it('takes at most 10,000 codes and needs the account', async () => {
    const codes = Array.from({ length: 10_000 }, (_, i) => `Code${i}`);
    expect((await client.countClickedLinks({ accountId: account, codes })).clicked).toBe(0);
    await expect(client.countClickedLinks({ accountId: account, codes: [...codes, 'More1'] })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { codes: 'must have at most 10000 items' },
    });
    await expect(client.countClickedLinks({ accountId: '', codes: [] })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { account_id: 'is required' },
    });
  });
});
