import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A private redis-server on 127.0.0.1:`port` that keeps nothing on disk, for a test that kills
 * it: the stack's own Redis must stay up for everyone else.
 */
export function startRedisServer(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}
