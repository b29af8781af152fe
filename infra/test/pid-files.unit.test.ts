import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const LIB = resolve(import.meta.dirname, '../lib.sh');

/** Runs a snippet with infra/lib.sh sourced, against a private .local folder. */
function lib(localDir: string, script: string): string {
  return execFileSync('bash', ['-c', `source "${LIB}"; ${script}`], {
    env: { ...process.env, FEEDBACK_LOCAL_DIR: localDir },
    encoding: 'utf8',
  }).trim();
}

const startTime = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]!;
/** Alive and not a zombie (a killed daemon's parent is init, which may reap it late). */
const alive = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('pid files of the local stack', () => {
  let local: string;
  const children: ChildProcess[] = [];
  const sleeper = () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  };

  beforeEach(() => {
    local = mkdtempSync(join(tmpdir(), 'infra-test-'));
    lib(local, 'true'); // lib.sh creates run/, logs/ and data/
  });
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  it('counts a process as running only while the recorded PID still has its recorded start time', () => {
    const pid = sleeper();
    writeFileSync(join(local, 'run/demo.pid'), `${pid} ${startTime(pid)}\n`, { flag: 'w' });
    expect(lib(local, 'is_running demo && echo yes || echo no')).toBe('yes');
    // The same PID with another start time: a stale file whose PID the kernel gave to someone else.
    writeFileSync(join(local, 'run/demo.pid'), `${pid} 1\n`);
    expect(lib(local, 'is_running demo && echo yes || echo no')).toBe('no');
  });

  it('does not count a zombie as running', async () => {
    // The child exits at once; its parent execs into sleep and never reaps it: a zombie for a while.
    const parent = spawn('bash', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const zombie = Number(await new Promise<string>((r) => parent.stdout!.once('data', (d: Buffer) => r(d.toString()))));
    await new Promise((r) => setTimeout(r, 800));
    expect(readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]!.split(' ')[0]).toBe('Z');
    writeFileSync(join(local, 'run/demo.pid'), `${zombie} ${startTime(zombie)}\n`);
    expect(lib(local, 'is_running demo && echo yes || echo no')).toBe('no');
  });

  it('does not signal a process that merely reuses a recorded PID, and forgets the stale file', () => {
    const pid = sleeper();
    writeFileSync(join(local, 'run/demo.pid'), `${pid} 1\n`);
    lib(local, 'stop_pid demo');
    expect(alive(pid)).toBe(true);
    expect(lib(local, '[ -f "$RUN_DIR/demo.pid" ] && echo kept || echo gone')).toBe('gone');
  });

  it('stops the process it started, and starts each run with a fresh log', () => {
    lib(local, 'start_bg demo bash -c "echo first run; sleep 30"');
    const pid = Number(readFileSync(join(local, 'run/demo.pid'), 'utf8').split(' ')[0]);
    expect(lib(local, 'is_running demo && echo yes || echo no')).toBe('yes');
    lib(local, 'wait_for demo 5 grep -q "first run" "$LOG_DIR/demo.log"; stop_pid demo');
    expect(alive(pid)).toBe(false);
    lib(
      local,
      'start_bg demo bash -c "echo second run; sleep 30"; wait_for demo 5 grep -q "second run" "$LOG_DIR/demo.log"; stop_pid demo',
    );
    const log = readFileSync(join(local, 'logs/demo.log'), 'utf8');
    expect(log).toContain('second run');
    expect(log).not.toContain('first run'); // an old "Kafka Server started" can no longer fake readiness
  });
});
