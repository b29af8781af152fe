import { ALL_COMMANDS } from './commands/all-commands.js';
import { commandName, usageLine, type Command } from './commands/command.js';

const CONNECTION_OPTIONS: Array<[string, string]> = [
  ['--url BASE_URL', "the gateway's API listener (default: FEEDBACK_BASE_URL, else the local stack's .local/stack.json)"],
  ['--admin-token TOKEN', "the deployment's ADMIN_TOKEN (default: FEEDBACK_ADMIN_TOKEN, else .local/stack.json)"],
  ['-h, --help', 'this help'],
];

const column = (rows: Array<[string, string]>) => {
  const width = Math.min(30, Math.max(...rows.map(([left]) => left.length)) + 2);
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${left.length >= width ? `\n  ${' '.repeat(width)}` : ''}${right}`).join('\n');
};

export function overallUsage(): string {
  const lines = ALL_COMMANDS.map((c) => `  ${usageLine(c)}\n      ${c.summary}`);
  return `feedbackctl: the admin API from the command line

usage: feedbackctl COMMAND [options]

${lines.join('\n')}

Options of every command:
${column([...CONNECTION_OPTIONS, ['--version', "feedbackctl's version"]])}

feedbackctl help COMMAND (or COMMAND --help) shows a command's options and an example. Output is
JSON on stdout; errors and progress go to stderr. Exit codes: 0 done, 1 the API refused or could
not be reached, 2 the command line was wrong.`;
}

export function commandHelp(c: Command): string {
  const options = Object.entries(c.options).map(([name, o]): [string, string] => [
    `--${name} ${o.value}`,
    `${o.help}${o.required ? '' : ' (optional)'}`,
  ]);
  return `usage: feedbackctl ${usageLine(c)}

${c.summary}

options:
${column([...options, ...CONNECTION_OPTIONS])}

example:
  ${c.example}`;
}

export function groupHelp(group: string): string {
  const commands = ALL_COMMANDS.filter((c) => c.group === group);
  return `${commands.map((c) => `usage: feedbackctl ${usageLine(c)}\n    ${c.summary}`).join('\n')}

feedbackctl help ${group} ACTION shows an action's options and an example.`;
}

/** The line under a usage error: the command's usage and where its help is. */
export const usageHint = (c?: Command) =>
  c
    ? `usage: feedbackctl ${usageLine(c)} (see feedbackctl help ${commandName(c)})`
    : 'usage: feedbackctl COMMAND [options] (see feedbackctl --help)';
