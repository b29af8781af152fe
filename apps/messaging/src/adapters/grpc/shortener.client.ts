import type { GrpcClient } from '@feedback/kit-grpc';
import type { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { LinkShortener } from '../../domain/ports.js';

export function shortenerPort(client: GrpcClient<ShortenerServiceClient>): LinkShortener {
  return {
    async shorten(url, accountId) {
      const res = await client.shorten({ url, accountId, domain: '' });
      if (!res.link) throw new Error('shortener.Shorten answered without a link');
      return res.link.shortUrl;
    },
  };
}
