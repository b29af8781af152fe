import type { Command } from './command.js';

const account = { value: 'ID', help: 'the account', required: true };

export const accountCommands: Command[] = [
  {
    group: 'accounts',
    action: 'create',
    summary: 'create an account',
    options: { name: { value: 'NAME', help: "the account's name", required: true } },
    example: 'feedbackctl accounts create --name "Acme"',
    run: (c) => c.client.createAccount(c.need('name')),
  },
];

export const nodeCommands: Command[] = [
  {
    group: 'nodes',
    action: 'create',
    summary: 'create a node (a store, branch or touchpoint surveys are about)',
    options: { account, name: { value: 'NAME', help: "the node's name", required: true } },
    example: 'feedbackctl nodes create --account ACCOUNT_ID --name "Store 1"',
    run: (c) => c.client.createNode(c.need('account'), c.need('name')),
  },
];
