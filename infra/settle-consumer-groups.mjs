#!/usr/bin/env node
// node infra/settle-consumer-groups.mjs STACK_JSON [TIMEOUT_SECONDS]
//
// Waits until no consumer group on the stack's Kafka is rebalancing, seen twice two seconds apart.
// The apps answer (ready) before their consumers have joined their groups (they join in the
// background), and each member that joins makes its group rebalance, which holds that group's
// records meanwhile. Tests started right after the apps (a warm cache: no tool to build first)
// would otherwise wait on those rebalances with their own, shorter patience. Exits 0 when settled,
// 1 on timeout (the groups still rebalancing are named), never touching a group.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';

const [stackFile, timeoutArg] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg ?? 90) * 1000;
const stack = JSON.parse(readFileSync(stackFile, 'utf8'));
// kafkajs is a dependency of kit-kafka, not of the repository's root.
const require = createRequire(new URL('../packages/kit-kafka/package.json', import.meta.url));
const { Kafka, logLevel } = require('kafkajs');

const admin = new Kafka({ clientId: 'settle-consumer-groups', brokers: stack.kafka_brokers, logLevel: logLevel.NOTHING }).admin();
const SETTLED = new Set(['Stable', 'Empty', 'Dead']);
const started = Date.now();

async function unsettled() {
  const { groups } = await admin.listGroups();
  if (groups.length === 0) return { total: 0, busy: [] };
  const described = await admin.describeGroups(groups.map((g) => g.groupId));
  return { total: groups.length, busy: described.groups.filter((g) => !SETTLED.has(g.state)).map((g) => `${g.groupId} (${g.state})`) };
}

await admin.connect();
let calm = 0;
let last = { total: 0, busy: [] };
try {
  while (calm < 2) {
    last = await unsettled();
    calm = last.busy.length === 0 ? calm + 1 : 0;
    if (calm >= 2) break;
    if (Date.now() - started > timeoutMs) {
      console.error(`consumer groups still rebalancing after ${timeoutMs / 1000} s: ${last.busy.join(', ')}`);
      process.exitCode = 1;
      break;
    }
    await sleep(2000);
  }
  if (!process.exitCode) console.error(`${last.total} consumer groups settled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await admin.disconnect();
}
