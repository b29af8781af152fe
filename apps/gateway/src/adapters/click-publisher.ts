import { randomUUID } from 'node:crypto';
import type { Logger } from '@feedback/kit-core';
import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';

export interface ClickPublisherOptions {
  topic: string;
  /** A batch is sent as soon as it has this many clicks... */
  batchSize: number;
  /** ...or this long after the previous send. */
  flushIntervalMs: number;
  /** Beyond this many unsent clicks (Kafka away for long) the oldest are dropped, with a warning. */
  maxBuffered: number;
  logger: Logger;
}

interface PendingClick {
  code: string;
  at: number;
}

/**
 * Records `link.clicked` events off the redirect path: `record` only appends to a buffer; a
 * timer sends the buffer in batches through the idempotent producer, one send at a time. A
 * failed send keeps its clicks for the next try. Clicks wait in memory, so a crash loses at
 * most the last interval's clicks; `close` sends what is left.
 */
export class ClickPublisher {
  private buffer: PendingClick[] = [];
  private sending: Promise<void> | undefined;
  private connected = false;
  private connecting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private lastDropWarning = 0;

  constructor(
    private readonly producer: Producer,
    private readonly opts: ClickPublisherOptions,
  ) {}

  start() {
    this.timer = setInterval(() => void this.flush(), this.opts.flushIntervalMs);
    this.timer.unref();
    void this.connect();
  }

  record(code: string): void {
    this.buffer.push({ code, at: Date.now() });
    if (this.buffer.length > this.opts.maxBuffered) this.drop(this.buffer.length - this.opts.maxBuffered);
    if (this.buffer.length >= this.opts.batchSize && !this.sending) void this.flush();
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** Sends everything buffered (in batches) unless Kafka is unreachable. */
  flush(): Promise<void> {
    if (this.sending || this.buffer.length === 0) return this.sending ?? Promise.resolve();
    if (!this.connected) return this.connect();
    this.sending = this.sendAll().finally(() => (this.sending = undefined));
    return this.sending;
  }

  /** Sends what is left, waiting at most `waitMs` for a connection still being made. */
  async close(waitMs = 5_000): Promise<void> {
    clearInterval(this.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.connecting, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    await this.sending;
    if (this.connected) await this.flush();
    if (this.buffer.length > 0) this.opts.logger.warn({ lost: this.buffer.length }, 'clicks not sent before shutdown');
  }

  private async sendAll() {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.opts.batchSize);
      try {
        await this.producer.publish(this.opts.topic, batch.map((c) => this.toMessage(c)));
      } catch (err) {
        this.buffer = batch.concat(this.buffer);
        this.opts.logger.warn({ err, pending: this.buffer.length }, 'sending clicks failed; will retry');
        return;
      }
    }
  }

  private toMessage(c: PendingClick): OutgoingMessage {
    const clickId = randomUUID();
    const event = LinkClicked.encode({ clickId, code: c.code, clickedAt: new Date(c.at).toISOString() }).finish();
    return { key: c.code, value: Buffer.from(event.buffer, event.byteOffset, event.byteLength), eventId: clickId };
  }

  private connect(): Promise<void> {
    this.connecting ??= this.producer
      .connect()
      .then(() => {
        this.connected = true;
      })
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'kafka producer not connected; clicks are buffered'))
      .finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private drop(n: number) {
    this.buffer.splice(0, n);
    this.dropped += n;
    if (Date.now() - this.lastDropWarning > 10_000) {
      this.lastDropWarning = Date.now();
      this.opts.logger.warn({ dropped_total: this.dropped }, 'click buffer full; oldest clicks dropped');
    }
  }
}
