import { errors, type Logger } from '@feedback/kit-core';
import type { ApiToken } from '../accounts/domain/account.js';
import type { TokenRepository } from '../accounts/domain/ports.js';
import type { FromLinkThread, TokenAnswer } from './link-thread.js';

/**
 * The link thread's token lookups, answered by the main thread's token cache over the thread's
 * message port (link-thread.ts). Only POST /shorten naming a customer domain asks, so the thread
 * needs no database connection and no cache of its own, and a token revoked through this gateway
 * is refused on both listeners at once. Redirects never come here.
 */
export class MainThreadTokens implements Pick<TokenRepository, 'findByHash'> {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: TokenAnswer | 'late') => void>();

  constructor(
    private readonly post: (m: FromLinkThread) => void,
    private readonly opts: { timeoutMs: number; logger: Logger },
  ) {}

  findByHash(hash: string): Promise<ApiToken | null> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle('late'), this.opts.timeoutMs);
      const settle = (answer: TokenAnswer | 'late') => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (answer !== 'late' && answer.type === 'token') return resolve(answer.token);
        // Like the API listener when its database is away: 503, try again (never the reason).
        this.opts.logger.warn(
          { reason: answer === 'late' ? 'no answer in time' : answer.error },
          'token lookup through the main thread failed',
        );
        reject(errors.unavailable());
      };
      this.waiting.set(id, settle);
      this.post({ type: 'token', id, hash });
    });
  }

  /** The main thread's answer to a lookup; one that comes after its lookup gave up is dropped. */
  answer(m: TokenAnswer): void {
    this.waiting.get(m.id)?.(m);
  }
}
