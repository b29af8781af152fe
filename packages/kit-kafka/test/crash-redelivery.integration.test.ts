import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, committedOffset, freshTopic, startConsumer, startProducer, uniq, waitFor } from './stack.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsxLoader = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs')).href;

afterEach(closeAll);

describe('crash mid-handler', () => {
  it('redelivers the message a killed consumer was handling', async () => {
    const topic = await freshTopic();
    const groupId = uniq('g');
    const producer = await startProducer();
    const [eventId] = await producer.publish(topic, [{ value: 'work' }]);

    const child = spawn(process.execPath, ['--import', tsxLoader, join(here, 'fixtures/hanging-consumer.ts'), topic, groupId], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await waitFor('the child to take the message', () => out.includes(`handling ${eventId}`), 30_000);
    } finally {
      child.kill('SIGKILL'); // no shutdown hook, no commit: a crash
      await exited;
    }
    expect(await committedOffset(groupId, topic)).toBe('-1');

    const handled: string[] = [];
    await startConsumer({ groupId, topics: [topic], handler: async (m) => void handled.push(m.eventId) });
    await waitFor('the redelivered message', () => handled.length === 1, 40_000);
    expect(handled).toEqual([eventId]);
  });
});
