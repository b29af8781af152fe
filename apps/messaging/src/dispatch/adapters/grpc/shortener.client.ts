import type { GrpcClient } from '@feedback/kit-grpc';
import type { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { LinkShortener } from '../../../shared/ports.js';

/** A batch call (one per Kafka batch of sms.dispatch) does the work of hundreds of single ones. */
const BATCH_DEADLINE_MS = 30_000;

/** CountClickedLinks' limit per call. */
const CODES_PER_CALL = 10_000;

export function shortenerPort(client: GrpcClient<ShortenerServiceClient>): LinkShortener {
  return {
    async shortenMany(urls, accountId) {
      const res = await client.shortenMany({ urls, accountId }, { deadlineMs: BATCH_DEADLINE_MS });
      if (res.links.length !== urls.length)
        throw new Error(`shortener.ShortenMany answered ${res.links.length} links for ${urls.length} URLs`);
      return res.links.map((l) => l.shortUrl);
    },
    async countClicked(accountId, codes) {
      const calls: Promise<{ clicked: number }>[] = [];
      for (let i = 0; i < codes.length; i += CODES_PER_CALL)
        calls.push(client.countClickedLinks({ accountId, codes: codes.slice(i, i + CODES_PER_CALL) }));
      return (await Promise.all(calls)).reduce((sum, r) => sum + r.clicked, 0);
    },
  };
}
