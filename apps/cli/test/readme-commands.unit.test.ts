import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../src/commands/all-commands.js';
import { commandName } from '../src/commands/command.js';

// The README's command list is what an operator scans first: it names every command feedbackctl
// has (as `group action|action`), and none it lacks.

const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

/** The commands the README's list names: `tokens create|list|revoke` is three, `seed` one. */
function listed(text: string): string[] {
  const list = /^Commands: ([\s\S]*?)\. Each is one call/m.exec(text)?.[1] ?? '';
  return [...list.matchAll(/`([a-z][a-z-]*)(?: ([a-z|-]+))?`/g)].flatMap(([, group, actions]) =>
    actions ? actions.split('|').map((a) => `${group} ${a}`) : [group!],
  );
}

describe('apps/cli/README.md lists the commands', () => {
  it('every command feedbackctl has, and only those', () => {
    const names = ALL_COMMANDS.map(commandName).sort();
    expect(names.length).toBeGreaterThan(20);
    expect(listed(README).sort()).toEqual(names);
  });
});
