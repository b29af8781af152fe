/** An explain('executionStats') answer, as far as the tests read it. */
type Plan = { stage?: unknown; indexName?: unknown; inputStage?: Plan; inputStages?: Plan[] };
type Explained = {
  queryPlanner?: { winningPlan?: Plan };
  executionStats?: { totalDocsExamined?: number; totalKeysExamined?: number; nReturned?: number };
};

/**
 * What a query's explain says of its plan: every stage and index name of the winning plan (the
 * server nests them as inputStage / inputStages) and what it examined. The tests of index use
 * assert on this, the part both MongoDB and the local server (SecantusDB) report.
 */
export function queryPlan(explained: unknown): { stages: string[]; indexes: string[]; docsExamined?: number; keysExamined?: number } {
  const e = explained as Explained;
  const walk = (p: Plan | undefined): Plan[] => (p ? [p, ...[p.inputStage, ...(p.inputStages ?? [])].flatMap((c) => walk(c))] : []);
  const plans = walk(e.queryPlanner?.winningPlan);
  return {
    stages: plans.map((p) => String(p.stage)),
    indexes: plans.flatMap((p) => (p.indexName ? [String(p.indexName)] : [])),
    ...(e.executionStats?.totalDocsExamined !== undefined ? { docsExamined: e.executionStats.totalDocsExamined } : {}),
    ...(e.executionStats?.totalKeysExamined !== undefined ? { keysExamined: e.executionStats.totalKeysExamined } : {}),
  };
}

/** The part of a MongoClient (made with `monitorCommands: true`) that explainFinds uses. */
interface MonitoredClient {
  on(
    event: 'commandStarted',
    listener: (e: { commandName: string; databaseName: string; command: Record<string, unknown> }) => void,
  ): unknown;
  off(event: 'commandStarted', listener: (...args: never[]) => void): unknown;
  db(name: string): { command(cmd: Record<string, unknown>): Promise<unknown> };
}

/**
 * The plans of the finds `run` sends (say, a repository's list call), each explained as it was
 * sent: the test checks the queries the code makes, not a copy of them.
 */
export async function explainFinds(client: MonitoredClient, run: () => Promise<unknown>): Promise<ReturnType<typeof queryPlan>[]> {
  const finds: { db: string; command: Record<string, unknown> }[] = [];
  const listener = (e: { commandName: string; databaseName: string; command: Record<string, unknown> }) => {
    if (e.commandName === 'find') finds.push({ db: e.databaseName, command: e.command });
  };
  client.on('commandStarted', listener);
  try {
    await run();
  } finally {
    client.off('commandStarted', listener);
  }
  const plans = [];
  for (const { db, command } of finds) {
    const { find, filter, sort, limit } = command;
    const explain = { find, filter, ...(sort ? { sort } : {}), ...(limit ? { limit } : {}) };
    plans.push(queryPlan(await client.db(db).command({ explain, verbosity: 'executionStats' })));
  }
  return plans;
}
