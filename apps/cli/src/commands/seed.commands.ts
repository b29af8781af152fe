import { seed } from '../seed.js';
import type { Command } from './command.js';

export const seedCommands: Command[] = [
  {
    group: 'seed',
    action: '',
    summary:
      'a demo account, both token kinds, a node, a flow, a channel, a working personal survey link, an SMS campaign, and the first operator (operator@localhost, a generated password printed once) while there is none; each step on stderr as it is done',
    options: {},
    example: 'feedbackctl seed > demo.json',
    run: (c) => seed(c.client, { baseUrl: c.baseUrl, progress: (line) => c.progress(`seed ${line}`) }),
  },
];
