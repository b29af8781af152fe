import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { runWithContext } from '../src/request-context.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  it('never writes secrets', () => {
    const { lines, stream } = capture();
    const log = createLogger('svc', 'info', {}, stream);
    log.info({ headers: { authorization: 'Token token=abc123' }, token: 'tok-secret', s3: { secret_key: 'sk-1' } }, 'hello');
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('tok-secret');
    expect(text).not.toContain('sk-1');
    expect(text).toContain('[redacted]');
  });

  it('stamps every line with the current request id', () => {
    const { lines, stream } = capture();
    const log = createLogger('svc', 'info', {}, stream);
    runWithContext({ requestId: 'req-42' }, () => log.info('inside'));
    log.info('outside');
    expect(lines[0]).toMatchObject({ request_id: 'req-42', service: 'svc', msg: 'inside' });
    expect(lines[1]).not.toHaveProperty('request_id');
  });
});
