import { AppError } from '@feedback/kit-core';
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

// The shortener's gRPC handlers on port 0 against the real MongoDB-compatible server.
describe('ShortenerService over gRPC', () => {
  let mongo: MongoHandle;
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createGrpcClient<ShortenerServiceClient>>;
  let tallies: MongoClickTallyRepository;
  const codes: string[] = [];

  beforeAll(async () => {
    mongo = await openTestDb('shortener_test');
    await ensureIndexes(mongo.db, shortenerIndexes);
    tallies = new MongoClickTallyRepository(mongo.db);
    const deps = {
      links: new MongoLinkRepository(mongo.db),
      domains: new MongoDomainRepository(mongo.db),
      tallies,
      clock: { now: () => new Date() },
      // Replays queued codes first, so a collision can be forced.
      newCode: () => codes.shift() ?? newShortCode(7),
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

  it('shortens and resolves, keeping the URL byte for byte', async () => {
    const url = 'https://bücher.example/straße/%E2%9C%93?q=a%2Fb&x=Ü#Top';
    const { link } = await client.shorten({ url, accountId: '', domain: '' });
    expect(link).toMatchObject({ fullUrl: url, accountId: '', domain: '' });
    expect(link!.code).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(link!.shortUrl).toBe(`http://127.0.0.1:8081/${link!.code}`);
    expect(link!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await client.resolve({ code: link!.code })).link).toEqual(link);
  });

  it('retries a taken code, so a code is never served for two URLs', async () => {
    codes.push('Collide', 'Collide', 'Fresh42');
    const a = await client.shorten({ url: 'https://a.example/', accountId: '', domain: '' });
    const b = await client.shorten({ url: 'https://b.example/', accountId: '', domain: '' });
    expect([a.link!.code, b.link!.code]).toEqual(['Collide', 'Fresh42']);
    expect((await client.resolve({ code: 'Collide' })).link!.fullUrl).toBe('https://a.example/');
  });

  it('answers NOT_FOUND naming the code, and INVALID_ARGUMENT naming the field', async () => {
    const missing = await client.resolve({ code: 'Nope123' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AppError);
    expect(missing).toMatchObject({ kind: 'not_found', code: 13002, fields: { code: 'Nope123' } });
    const bad = await client.shorten({ url: 'data:text/html,hi', accountId: '', domain: '' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'invalid', code: 13000, fields: { url: expect.stringMatching(/data: scheme/) } });
  });

  it("serves an account's links on its default customer domain, and refuses foreign domains", async () => {
    const acc = uniq('acc');
    const name = `${uniq('go')}.example.com`;
    const added = await client.addDomain({ accountId: acc, domain: name.toUpperCase() });
    expect(added.domain).toMatchObject({ name, accountId: acc, default: true });
    await client.addDomain({ accountId: acc, domain: `second.${name}` });
    const conflict = await client.addDomain({ accountId: uniq('acc'), domain: name }).catch((e: unknown) => e);
    expect(conflict).toMatchObject({ kind: 'conflict', code: 13003 });

    const { domains } = await client.listDomains({ accountId: acc });
    expect(domains.map((d) => [d.name, d.default])).toEqual([
      [name, true],
      [`second.${name}`, false],
    ]);

    const sms = await client.shorten({ url: 'https://survey.example/s/tok', accountId: acc, domain: '' });
    expect(sms.link!.shortUrl).toBe(`https://${name}/${sms.link!.code}`);
    const named = await client.shorten({ url: 'https://survey.example/s/x', accountId: acc, domain: `second.${name}` });
    expect(named.link).toMatchObject({ accountId: acc, domain: `second.${name}`, shortUrl: `https://second.${name}/${named.link!.code}` });
    // Another account's domain, or one named without an account, is PERMISSION_DENIED and stores nothing.
    for (const accountId of [uniq('acc'), '']) {
      const foreign = await client.shorten({ url: 'https://x.example/foreign', accountId, domain: name }).catch((e: unknown) => e);
      expect(foreign).toBeInstanceOf(AppError);
      expect(foreign).toMatchObject({ kind: 'permission_denied', code: 13013 });
    }
    expect(await mongo.db.collection('links').countDocuments({ full_url: 'https://x.example/foreign' })).toBe(0);
    const unknown = await client.shorten({ url: 'https://x.example', accountId: acc, domain: `nobody.${name}` }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ kind: 'invalid', fields: { domain: 'is not a configured short link domain' } });

    await client.removeDomain({ accountId: acc, domain: name });
    expect((await client.listDomains({ accountId: acc })).domains.map((d) => d.name)).toEqual([`second.${name}`]);
    expect((await client.resolve({ code: sms.link!.code })).link!.domain).toBe(name);
  });

  it('shortens many URLs of an account in order on its default domain, retrying taken codes; they resolve', async () => {
    const acc = uniq('acc');
    const name = `${uniq('go')}.example.com`;
    await client.addDomain({ accountId: acc, domain: name });
    const urls = ['https://survey.example/s/1', 'https://survey.example/s/2', 'https://survey.example/s/1', 'https://other.example/x'];
    // The second link draws the first one's code: the real duplicate key error sends it round again.
    codes.push('ManyDup', 'ManyDup', 'ManyOk3', 'ManyOk4', 'ManyNew');
    const { links } = await client.shortenMany({ urls, accountId: acc });
    expect(links.map((l) => [l.fullUrl, l.code])).toEqual([
      [urls[0], 'ManyDup'],
      [urls[1], 'ManyNew'],
      [urls[2], 'ManyOk3'],
      [urls[3], 'ManyOk4'],
    ]);
    for (const l of links) {
      expect(l).toMatchObject({ accountId: acc, domain: name, shortUrl: `https://${name}/${l.code}` });
      expect((await client.resolve({ code: l.code })).link).toEqual(l);
    }
  });

  it('refuses a whole batch naming the bad URL by position, and stores none of it', async () => {
    const acc = uniq('acc');
    const bad = await client
      .shortenMany({ urls: ['https://kept.example/', 'file:///etc/passwd'], accountId: acc })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'invalid', code: 13000, fields: { 'urls[1]': expect.stringMatching(/file: scheme/) } });
    expect(await mongo.db.collection('links').countDocuments({ account_id: acc })).toBe(0);
    const noAccount = await client.shortenMany({ urls: ['https://a.example/'], accountId: '' }).catch((e: unknown) => e);
    expect(noAccount).toMatchObject({ kind: 'invalid', fields: { account_id: 'is required' } });
  });

  it('reports the clicks counted for a link', async () => {
    const { link } = await client.shorten({ url: 'https://count.example/', accountId: '', domain: '' });
    expect((await client.getLinkStats({ code: link!.code })).clicks).toBe(0);
    await countClicks(
      tallies,
      0,
      [0, 1, 2].map((offset) => ({ code: link!.code, offset, clicks: 1 })),
    );
    await countClicks(
      tallies,
      0,
      [1, 2, 3].map((offset) => ({ code: link!.code, offset, clicks: 1 })),
    );
    const stats = await client.getLinkStats({ code: link!.code });
    expect(stats).toEqual({ link, clicks: 4 });
  });
});
