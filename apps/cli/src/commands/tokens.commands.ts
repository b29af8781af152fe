import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';

const account = { value: 'ID', help: 'the account', required: true };

export const tokenCommands: Command[] = [
  {
    group: 'tokens',
    action: 'create',
    summary: 'create a token; its secret is printed only here',
    options: {
      account,
      kind: { value: 'api|integration', help: 'api (Token token=...) or integration (Bearer ...)', required: true },
      name: { value: 'NAME', help: "the token's name", required: true },
    },
    example: 'feedbackctl tokens create --account ACCOUNT_ID --kind integration --name "shop backend"',
    run: (c) => {
      const kind = c.need('kind');
      if (kind !== 'api' && kind !== 'integration') throw new UsageError('--kind must be api or integration');
      return c.client.createToken(c.need('account'), kind, c.need('name'));
    },
  },
  {
    group: 'tokens',
    action: 'list',
    summary: "list an account's tokens (never their secrets)",
    options: { account },
    example: 'feedbackctl tokens list --account ACCOUNT_ID',
    run: (c) => c.client.listTokens(c.need('account')),
  },
  {
    group: 'tokens',
    action: 'revoke',
    summary: 'revoke a token',
    options: { account, token: { value: 'TOKEN_ID', help: "the token's id (from tokens list)", required: true } },
    example: 'feedbackctl tokens revoke --account ACCOUNT_ID --token TOKEN_ID',
    run: async (c) => (await c.client.revokeToken(c.need('account'), c.need('token'))) ?? { revoked: c.need('token') },
  },
];
