import type { Logger } from '@feedback/kit-core';
import type { OutgoingMessage, Producer } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import type { ClickDetails } from './click-details.js';

export interface ClickPublisherOptions {
  topic: string;
  /** A send starts as soon as this many clicks are waiting... */
  batchSize: number;
  /** ...or this long after the previous one. */
  flushIntervalMs: number;
  /** Beyond this many unsent clicks (Kafka away for long) new clicks are dropped, with a warning. */
  maxBuffered: number;
  logger: Logger;
}

/** Clicks of one link per record; bounds the record size during a long burst. */
const MAX_CLICKS_PER_RECORD = 1000;
/** Records per produce request. */
const MAX_RECORDS_PER_SEND = 1000;

/**
 * One link's waiting clicks (times and details, in step) and excluded redirects as counts per
 * second (`seconds[i]` had `counts[i]`): one phone tapping again and again is tens of thousands
 * of excluded redirects a second, and a time each cost the link thread an array growing by a
 * number per redirect, Kafka a flush per thousand and the consumer a loop over every one of them.
 */
interface LinkBatch {
  times: number[];
  details: ClickDetails[];
  seconds: number[];
  counts: number[];
}

type Pending = Map<string, LinkBatch>;

const NO_DETAILS: ClickDetails = { device: '', os: '', browser: '', referrerHost: '', country: '' };

/**
 * Records `link.clicked` events off the redirect path: `record` only notes the time and details
 * under its code (`exclude` counts a redirect that is no click in its second); a timer sends what
 * gathered, one record per link (its click times, details and excluded counts), through the
 * idempotent producer, one send at a time. Encoding and sending a Kafka record per click cost
 * as much CPU as the redirect itself; per link and interval it is nearly free, and the count is
 * the same. A failed send keeps its clicks for the next one. Clicks wait in memory, so a crash
 * loses at most the last interval's; `close` sends what is left.
 */
export class ClickPublisher {
  private pending: Pending = new Map();
  private size = 0;
  private sending: Promise<void> | undefined;
  private connected = false;
  private connecting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private lastSendFailed = false;
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

  /** `at`: when the redirect was answered (a click may wait on Redis before it gets here). */
  record(code: string, at = Date.now(), details: ClickDetails = NO_DETAILS): void {
    if (this.size >= this.opts.maxBuffered) return this.drop();
    const batch = this.batchOf(code);
    batch.times.push(at);
    batch.details.push(details);
    this.added();
  }

  /**
   * A redirect that is no click (click-filter.ts), sent along for its link's `bots_excluded`. Only
   * a second not counted yet takes a place in the buffer (and toward `batchSize`): further
   * redirects of that second add one to its count.
   */
  exclude(code: string, at = Date.now()): void {
    const second = at - (at % 1000);
    const batch = this.pending.get(code);
    const last = batch ? batch.seconds.length - 1 : -1;
    // Taps come in time order but for the few that waited on Redis: those may open a second again.
    if (last >= 0 && batch!.seconds[last] === second) {
      batch!.counts[last]!++;
      return;
    }
    if (this.size >= this.opts.maxBuffered) return this.drop();
    const b = batch ?? this.batchOf(code);
    b.seconds.push(second);
    b.counts.push(1);
    this.added();
  }

  private batchOf(code: string): LinkBatch {
    let batch = this.pending.get(code);
    if (!batch) this.pending.set(code, (batch = { times: [], details: [], seconds: [], counts: [] }));
    return batch;
  }

  private added() {
    this.size++;
    if (this.size >= this.opts.batchSize && !this.sending) void this.flush();
  }

  /** Clicks and seconds of excluded redirects not sent yet. */
  get waiting(): number {
    return this.size;
  }

  /** Sends everything gathered unless Kafka is unreachable. */
  flush(): Promise<void> {
    if (this.sending || this.size === 0) return this.sending ?? Promise.resolve();
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
    // A flush sends what had gathered when it started: again for what came meanwhile, a few times
    // at most, and not after a send failed (Kafka away: shutdown would wait for each attempt).
    for (let i = 0; i < 3 && this.connected && this.size > 0 && !this.lastSendFailed; i++) await this.flush();
    if (this.size > 0) this.opts.logger.warn({ lost: this.size }, 'clicks not sent before shutdown');
  }

  /**
   * Sends what gathered until now; what comes while it is on its way waits for the next interval
   * or a full batch. Sending again at once, as long as taps came, made a produce request every
   * 20 ms under load (one phone's repeats are a few every millisecond), a tenth of a core of
   * Kafka's and as many encodes and sends on the link thread (docs/performance.md).
   */
  private async sendAll() {
    this.lastSendFailed = false;
    const records = toRecords(this.pending);
    this.pending = new Map();
    this.size = 0;
    for (let i = 0; i < records.length; i += MAX_RECORDS_PER_SEND) {
      const slice = records.slice(i, i + MAX_RECORDS_PER_SEND);
      try {
        await this.producer.publish(this.opts.topic, slice.map(toMessage));
      } catch (err) {
        for (const r of records.slice(i)) this.putBack(r.code, r);
        this.lastSendFailed = true;
        this.opts.logger.warn({ err, waiting: this.size }, 'sending clicks failed; will retry');
        return;
      }
    }
  }

  private putBack(code: string, sent: LinkBatch) {
    const later = this.pending.get(code);
    this.pending.set(code, {
      times: sent.times.concat(later?.times ?? []),
      details: sent.details.concat(later?.details ?? []),
      seconds: sent.seconds.concat(later?.seconds ?? []),
      counts: sent.counts.concat(later?.counts ?? []),
    });
    this.size += sent.times.length + sent.seconds.length;
  }

  private connect(): Promise<void> {
    this.connecting ??= this.producer
      .connect()
      .then(() => {
        this.connected = true;
      })
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'kafka producer not connected; clicks are kept in memory'))
      .finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private drop() {
    this.dropped++;
    if (Date.now() - this.lastDropWarning > 10_000) {
      this.lastDropWarning = Date.now();
      this.opts.logger.warn({ dropped_total: this.dropped }, 'click buffer full; new clicks dropped');
    }
  }
}

type LinkRecord = LinkBatch & { code: string };

function toRecords(pending: Pending): LinkRecord[] {
  const records: LinkRecord[] = [];
  for (const [code, b] of pending) {
    const n = Math.max(b.times.length, b.seconds.length);
    for (let i = 0; i < n; i += MAX_CLICKS_PER_RECORD) {
      const end = i + MAX_CLICKS_PER_RECORD;
      const [times, details, seconds, counts] = [b.times, b.details, b.seconds, b.counts].map((a) => a.slice(i, end)) as [
        number[],
        ClickDetails[],
        number[],
        number[],
      ];
      records.push({ code, times, details, seconds, counts });
    }
  }
  return records;
}

function toMessage(r: LinkRecord): OutgoingMessage {
  const excludedSeconds = r.seconds.map((secondMs, i) => ({ secondMs, count: r.counts[i]! }));
  const bytes = LinkClicked.encode({ code: r.code, clickedAtMs: r.times, details: r.details, excludedAtMs: [], excludedSeconds }).finish();
  return { key: r.code, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}
