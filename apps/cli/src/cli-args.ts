import { parseArgs } from 'node:util';
import { UsageError } from './cli-errors.js';
import { ALL_COMMANDS } from './commands/all-commands.js';
import { commandName, type Command } from './commands/command.js';
import { groupHelp, usageHint } from './help.js';

const CONNECTION = ['url', 'admin-token'];

/** What the command line asks for: a help text, the version, or a command with its option values. */
export type Invocation =
  | { kind: 'version' }
  | { kind: 'help'; command?: Command; group?: string }
  | { kind: 'run'; command: Command; values: Record<string, string | undefined> };

// Every option any command takes, so one strict parse finds the positionals; each command then
// refuses the options it does not take.
const OPTIONS = {
  ...Object.fromEntries(ALL_COMMANDS.flatMap((c) => Object.keys(c.options)).map((name) => [name, { type: 'string' as const }])),
  url: { type: 'string' as const },
  'admin-token': { type: 'string' as const },
  help: { type: 'boolean' as const, short: 'h' },
  version: { type: 'boolean' as const },
};

function findCommand(words: string[]): Command | undefined {
  return ALL_COMMANDS.find((c) => commandName(c) === words.join(' '));
}

/** The command the words name, or a usage error saying what is wrong with them. */
function resolve(words: string[]): Command {
  const command = findCommand(words);
  if (command) return command;
  const group = ALL_COMMANDS.filter((c) => c.group === words[0]);
  if (group.length > 0 && words.length === 1) {
    throw new UsageError(`"${words[0]}" needs an action: ${group.map((c) => c.action).join(', ')}`, groupHelp(words[0]!));
  }
  throw new UsageError(`unknown command "${words.join(' ')}"`, usageHint());
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = (err as Error).message;
    // Which command was meant, for the hint (a lenient parse may take an unknown option's value as a word).
    const words = parseArgs({ args: argv, allowPositionals: true, strict: false, options: OPTIONS }).positionals;
    const hint = usageHint(findCommand(words.slice(0, 2)) ?? findCommand(words.slice(0, 1)));
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message;
      throw new UsageError(`unknown option ${option}`, hint);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /'(-[^ ']+)/.exec(message)?.[1];
      throw new UsageError(option ? `${option} needs a value` : message, hint);
    }
    throw new UsageError(message, hint);
  }
}

export function interpret(argv: string[]): Invocation {
  const { values, positionals } = parse(argv);
  if (values.version) return { kind: 'version' };
  if (positionals[0] === 'help') {
    const words = positionals.slice(1);
    if (words.length === 0) return { kind: 'help' };
    if (words.length === 1 && !findCommand(words) && ALL_COMMANDS.some((c) => c.group === words[0]))
      return { kind: 'help', group: words[0] };
    return { kind: 'help', command: resolve(words) };
  }
  if (positionals.length === 0) return { kind: 'help' };
  if (values.help && positionals.length === 1 && !findCommand(positionals) && ALL_COMMANDS.some((c) => c.group === positionals[0])) {
    return { kind: 'help', group: positionals[0] };
  }
  const command = resolve(positionals);
  if (values.help) return { kind: 'help', command };
  const strings = values as Record<string, string | boolean | undefined>;
  for (const name of Object.keys(strings)) {
    if (name !== 'help' && name !== 'version' && !CONNECTION.includes(name) && !(name in command.options)) {
      throw new UsageError(`unknown option --${name} for "${commandName(command)}"`, usageHint(command));
    }
  }
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.required && !strings[name]) throw new UsageError(`--${name} is required`, usageHint(command));
  }
  return { kind: 'run', command, values: strings as Record<string, string | undefined> };
}
