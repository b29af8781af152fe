import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/**
 * The baseline: a bare Node HTTP server in its own process answering a fixed response,
 * so the load generator and the server do not share an event loop (as with the gateway).
 */
export interface BareResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function startBareServer(res: BareResponse): Promise<{ url: string; stop: () => void }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send(res);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve(m as number));
    child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

if (process.argv.includes('--serve')) {
  process.once('message', (m) => {
    const r = m as BareResponse;
    const body = Buffer.from(r.body);
    const server = createServer((_req, res) => {
      _req.resume();
      res.writeHead(r.status, { ...r.headers, 'content-length': body.length });
      res.end(body);
    });
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      process.send?.(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
}
