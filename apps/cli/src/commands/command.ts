import type { AdminClient } from '../admin-client.js';

/** One option of a command: `--account ID`. All command options take a value. */
export interface OptionSpec {
  /** The placeholder shown in the usage line, e.g. ID. */
  value: string;
  help: string;
  required?: boolean;
}

export interface CommandContext {
  client: AdminClient;
  baseUrl: string;
  /** The value of a declared option (required ones are checked before run). */
  opt(name: string): string | undefined;
  need(name: string): string;
  /** A line of progress for long work, printed to stderr so stdout stays the result. */
  progress(line: string): void;
}

/** A command: `group action`, its options, what it does and an example; run answers what is printed as JSON. */
export interface Command {
  group: string;
  action: string;
  summary: string;
  options: Record<string, OptionSpec>;
  example: string;
  run(ctx: CommandContext): Promise<unknown>;
}

export const commandName = (c: Command) => (c.action ? `${c.group} ${c.action}` : c.group);

/** `tokens create --account ID --kind api|integration --name NAME [--ttl-days DAYS]` */
export function usageLine(c: Command): string {
  const opts = Object.entries(c.options).map(([name, o]) => (o.required ? `--${name} ${o.value}` : `[--${name} ${o.value}]`));
  return [commandName(c), ...opts].join(' ');
}
