#!/usr/bin/env -S node --import tsx
import pkg from '../package.json' with { type: 'json' };
import { interpret } from './cli-args.js';
import { describeFailure, UsageError } from './cli-errors.js';
import { commandHelp, groupHelp, overallUsage } from './help.js';
import { connection } from './connection.js';

/** Runs one command line: the result as JSON (or a help text) on stdout, failures and progress on stderr; answers the exit code. */
async function main(argv: string[]): Promise<number> {
  let unreachableHint = 'is the gateway up?';
  try {
    const call = interpret(argv);
    if (call.kind === 'version') return print(pkg.version);
    if (call.kind === 'help') return print(call.command ? commandHelp(call.command) : call.group ? groupHelp(call.group) : overallUsage());
    const { values, command } = call;
    const conn = connection(values);
    unreachableHint = conn.unreachableHint;
    const out = await command.run({
      client: conn.client,
      baseUrl: conn.baseUrl,
      opt: (name) => values[name] || undefined,
      need: (name) => {
        const v = values[name];
        if (!v) throw new UsageError(`--${name} is required`);
        return v;
      },
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    return print(JSON.stringify(out, null, 2));
  } catch (err) {
    const { text, exitCode } = describeFailure(err, unreachableHint);
    process.stderr.write(`${text}\n`);
    return exitCode;
  }
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}

// exitCode, not exit(): stdout is flushed before the process ends, even into a pipe.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
