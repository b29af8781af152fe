import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

// feedbackctl links qr against the running stack: the image of a link's QR code, saved to a file.
describe('feedbackctl links qr', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedbackctl-qr-'));

  async function newLink() {
    const { shortener_url } = readStackFile();
    const res = await fetch(`${shortener_url}/shorten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `https://example.com/cli-qr/${Date.now()}` }),
    });
    return (await res.json()) as { id: string; shortUrl: string };
  }

  it('saves a PNG of the size asked, the format by the file name without --format, else an SVG', async () => {
    const { id, shortUrl } = await newLink();
    const png = join(dir, 'code.img');
    const saved = JSON.parse((await cli('links', 'qr', '--code', id, '--format', 'png', '--size', '240', '--out', png)).stdout);
    const bytes = readFileSync(png);
    expect(saved).toEqual({ id, short_url: shortUrl, out: png, content_type: 'image/png', bytes: bytes.length });
    // The PNG signature, then IHDR's width and height.
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([240, 240]);

    const byName = join(dir, 'code.PNG');
    expect(JSON.parse((await cli('links', 'qr', '--code', id, '--out', byName)).stdout)).toMatchObject({ content_type: 'image/png' });
    expect(readFileSync(byName).subarray(1, 4).toString()).toBe('PNG');

    const svg = join(dir, 'code.svg');
    expect(JSON.parse((await cli('links', 'qr', '--code', id, '--out', svg)).stdout)).toMatchObject({ content_type: 'image/svg+xml' });
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg [^>]*width="300" height="300"/);
  });

  it('fails naming the field for a bad size, writing nothing, and with the 404 of an unknown code', async () => {
    const { id } = await newLink();
    const out = join(dir, 'bad.png');
    const bad = await failure(cli('links', 'qr', '--code', id, '--size', '5000', '--out', out));
    expect(bad.code).toBe(1);
    const { line, body } = apiError(bad.stderr);
    expect(line).toBe(`GET /${id}/qr failed: 400 Bad Request, code 13000: An error occured`);
    expect(Object.keys(body.errors as object)).toEqual(['querystring.size']);
    expect(existsSync(out)).toBe(false);

    const unknown = await failure(cli('links', 'qr', '--code', 'nope0000', '--out', out));
    expect(unknown.code).toBe(1);
    expect(apiError(unknown.stderr).line).toMatch(/^GET \/admin\/v1\/links\/nope0000 failed: 404 Not Found/);
  });
});
