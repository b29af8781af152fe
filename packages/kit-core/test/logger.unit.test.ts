import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_FLUSH_INTERVAL_MS } from '../src/logger.js';
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
    // An account's SMS provider settings, as a gRPC request or an HTTP body would carry them.
    log.info({ request: { accountId: 'a', configJson: '{"password":"pw-1"}' }, body: { config_json: '{"key":"k-2"}' } }, 'provider');
    expect(JSON.stringify(lines[1])).not.toMatch(/pw-1|k-2/);
  });

  it('never writes personal data under the names it is given', () => {
    const { lines, stream } = capture();
    const log = createLogger('svc', 'info', {}, stream);
    log.info({ phone: '+905321234567', outcome: 'failed' }, 'opt-out confirmation not sent');
    log.info(
      { customer: { phone: '905321234568', email: 'ada@example.com' }, schema: { TCKN: '10000000146' }, phones: ['905321234569'] },
      'x',
    );
    log.info({ email: 'bob@example.com', tckn: '10000000147' }, 'y');
    expect(JSON.stringify(lines)).not.toMatch(/90532123456|example\.com|1000000014/);
    expect(lines[0]).toMatchObject({ phone: '[redacted]', outcome: 'failed' });
  });

  it('leaves plain values untouched and redacts nested secrets with the patched redactor', () => {
    const pinoRequire = createRequire(createRequire(import.meta.url).resolve('pino'));
    expect(readFileSync(pinoRequire.resolve('@pinojs/redact'), 'utf8')).toContain('Patched (feedback-service');
    const { lines, stream } = capture();
    const log = createLogger('svc', 'info', {}, stream);
    const plain = { method: 'GET', url: '/a?b="c"\n', status: 200, ratio: 0.5, ok: true, none: null, big: 2 ** 60 };
    log.info({ ...plain, account: { name: 'Acme', token: 'tok-nested' }, password: 'pw-top' }, 'line');
    expect(lines[0]).toMatchObject({ ...plain, account: { name: 'Acme', token: '[redacted]' }, password: '[redacted]' });
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

describe('the default stdout destination', () => {
  // A child process logs through createLogger's own stdout destination (buffered, see logger.ts).
  const child = (script: string) => {
    const logger = fileURLToPath(new URL('../src/logger.ts', import.meta.url));
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script.replaceAll('LOGGER', JSON.stringify(logger))],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (b: Buffer) => void (out += b.toString()));
    return {
      proc,
      lines: () =>
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { msg: string }),
    };
  };

  it('writes a line of an otherwise idle process within the flush interval, without waiting for more', async () => {
    const { proc, lines } = child(
      `const { createLogger } = await import(LOGGER); createLogger('svc').info('lonely'); setTimeout(() => {}, 30_000);`,
    );
    try {
      for (const started = Date.now(); lines().length === 0 && Date.now() - started < 20 * LOG_FLUSH_INTERVAL_MS;) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(lines().map((l) => l.msg)).toEqual(['lonely']);
    } finally {
      proc.kill('SIGKILL');
    }
  });

  it('writes every queued line when the process exits at once', async () => {
    const { proc, lines } = child(
      `const { createLogger } = await import(LOGGER); const log = createLogger('svc'); for (let i = 0; i < 500; i++) log.info('line ' + i); process.exit(0);`,
    );
    await new Promise((r) => proc.on('exit', r));
    expect(lines().map((l) => l.msg)).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));
  });
});
