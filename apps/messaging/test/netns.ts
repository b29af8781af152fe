import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '@feedback/dev-stack';

/** Every namespace and veth the tests make starts with this, so a crashed run's leftovers can be found. */
export const NETNS_PREFIX = 'fbmsg';

const FORWARDER = fileURLToPath(new URL('./tcp-forwarder.mjs', import.meta.url));

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * Removes namespaces and veths of earlier runs (names starting with `prefix`), first killing the
 * processes still inside such a namespace (by their ids, as `ip netns pids` lists them).
 */
export function removeLeftovers(prefix = NETNS_PREFIX): string[] {
  const removed: string[] = [];
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0];
    if (!name?.startsWith(prefix)) continue;
    for (const pid of ip('netns', 'pids', name).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    ip('netns', 'del', name);
    removed.push(name);
  }
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const name = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (!name?.startsWith(prefix)) continue;
    try {
      ip('link', 'del', name);
      removed.push(name);
    } catch {
      // a veth goes with its peer's namespace
    }
  }
  return removed;
}

export interface IsolatedHost {
  /** The namespace's name. */
  name: string;
  /** The veth's address on the host's side and inside the namespace. */
  hostAddr: string;
  nsAddr: string;
  /** Spawns a command inside the namespace. */
  spawn(command: string, args: string[], opts: Parameters<typeof spawn>[2]): ChildProcess;
  /** Takes the host's end of the link down: packets are dropped, connections hang (no reset). */
  cut(): void;
  /** Brings it up again: hung connections resume. */
  heal(): void;
  /** Kills its forwarders and what runs inside, deletes the namespace and the veth; never throws. */
  destroy(): Promise<void>;
}

/**
 * A host of its own for a process: a network namespace joined to the host by a veth pair
 * (10.231.X.1/30 on the host, .2 inside). The stack listens on 127.0.0.1 only, so for each of
 * `ports` a forwarder inside listens on the namespace's 127.0.0.1:PORT and dials the host's end
 * of the veth, where a forwarder in the host namespace passes it on to 127.0.0.1:PORT. Every
 * byte between the process and the stack then crosses the veth, which cut() takes down.
 */
export async function createIsolatedHost(ports: number[]): Promise<IsolatedHost> {
  const id = randomBytes(2).toString('hex');
  const name = `${NETNS_PREFIX}${id}`;
  const hostIf = `${name}h`;
  const nsIf = `${name}n`;
  const net = `10.231.${randomInt(0, 256)}`;
  const hostAddr = `${net}.1`;
  const nsAddr = `${net}.2`;
  const children: ChildProcess[] = [];
  const inNs = (command: string, args: string[], opts: Parameters<typeof spawn>[2]) => {
    const child = spawn('ip', ['netns', 'exec', name, command, ...args], opts);
    children.push(child);
    return child;
  };
  const destroy = async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? once(c, 'exit') : undefined)));
    for (const args of [
      ['netns', 'del', name],
      ['link', 'del', hostIf],
    ]) {
      try {
        ip(...args);
      } catch {
        // not made, or gone with the namespace
      }
    }
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
    ip('link', 'set', nsIf, 'netns', name);
    ip('addr', 'add', `${hostAddr}/30`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${nsAddr}/30`, 'dev', nsIf);
    ip('netns', 'exec', name, 'ip', 'link', 'set', nsIf, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');

    const hops = await Promise.all(ports.map(async (port) => ({ port, hop: await freePort() })));
    const started = async (child: ChildProcess) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      const deadline = Date.now() + 10_000;
      while (!out.includes('ready')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tcp forwarder did not start:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const hostSide = spawn(process.execPath, [FORWARDER, ...hops.map(({ port, hop }) => `${hostAddr}:${hop}=127.0.0.1:${port}`)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(hostSide);
    await started(hostSide);
    await started(
      inNs(process.execPath, [FORWARDER, ...hops.map(({ port, hop }) => `127.0.0.1:${port}=${hostAddr}:${hop}`)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    name,
    hostAddr,
    nsAddr,
    spawn: inNs,
    cut: () => void ip('link', 'set', hostIf, 'down'),
    heal: () => void ip('link', 'set', hostIf, 'up'),
    destroy,
  };
}
