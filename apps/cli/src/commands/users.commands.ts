import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';
import { readPasswordFile } from './file-input.js';

const account = { value: 'ID', help: 'the account', required: true };
const user = { value: 'USER_ID', help: "the user's id (from users list)", required: true };
const paging = {
  'page-size': { value: 'N', help: '1-200 (default 50)' },
  'page-token': { value: 'TOKEN', help: 'next_page_token of the previous page' },
};
const passwordFile = {
  value: 'FILE',
  help: 'a file holding the password (12+ characters; - reads stdin); left out, the answer has an invite_url to set one',
};
const ROLES = 'owner|member|viewer';

function role(value: string | undefined): string | undefined {
  if (value !== undefined && !ROLES.split('|').includes(value)) throw new UsageError(`--role must be one of ${ROLES}`);
  return value;
}

const password = (file: string | undefined) => (file === undefined ? {} : { password: readPasswordFile(file) });

/** The console's people (docs/api.md "Users and operators"). */
export const userCommands: Command[] = [
  {
    group: 'users',
    action: 'list',
    summary: "list an account's console users, newest first",
    options: { account, ...paging },
    example: 'feedbackctl users list --account ACCOUNT_ID',
    run: (c) => c.client.listUsers(c.need('account'), { page_size: c.opt('page-size'), page_token: c.opt('page-token') }),
  },
  {
    group: 'users',
    action: 'create',
    summary: 'create a console user with a role; without --password-file the answer has a single-use invite_url (7 days)',
    options: {
      account,
      email: { value: 'EMAIL', help: 'unique in the deployment', required: true },
      name: { value: 'NAME', help: "the person's name", required: true },
      role: { value: ROLES, help: 'owner: users, tokens, webhooks; member: campaigns, sharings; viewer: read only', required: true },
      'password-file': passwordFile,
    },
    example: 'feedbackctl users create --account ACCOUNT_ID --email ada@example.com --name "Ada" --role member',
    run: (c) =>
      c.client.createUser(c.need('account'), {
        email: c.need('email'),
        name: c.need('name'),
        role: role(c.need('role'))!,
        ...password(c.opt('password-file')),
      }),
  },
  {
    group: 'users',
    action: 'get',
    summary: 'show a console user',
    options: { account, user },
    example: 'feedbackctl users get --account ACCOUNT_ID --user USER_ID',
    run: (c) => c.client.getUser(c.need('account'), c.need('user')),
  },
  {
    group: 'users',
    action: 'update',
    summary: "change a user's role or name (a new role holds from their next request)",
    options: { account, user, role: { value: ROLES, help: 'the new role' }, name: { value: 'NAME', help: 'the new name' } },
    example: 'feedbackctl users update --account ACCOUNT_ID --user USER_ID --role viewer',
    run: (c) => {
      const patch = {
        ...(c.opt('name') !== undefined ? { name: c.opt('name')! } : {}),
        ...(c.opt('role') ? { role: role(c.opt('role'))! } : {}),
      };
      if (Object.keys(patch).length === 0) throw new UsageError('give --role or --name');
      return c.client.updateUser(c.need('account'), c.need('user'), patch);
    },
  },
  {
    group: 'users',
    action: 'delete',
    summary: 'remove a console user; their sessions end at once',
    options: { account, user },
    example: 'feedbackctl users delete --account ACCOUNT_ID --user USER_ID',
    run: async (c) => (await c.client.deleteUser(c.need('account'), c.need('user'))) ?? { deleted: c.need('user') },
  },
];

export const operatorCommands: Command[] = [
  {
    group: 'operators',
    action: 'create',
    summary: "create an operator (the console's every account)",
    options: {
      email: { value: 'EMAIL', help: 'unique in the deployment', required: true },
      name: { value: 'NAME', help: "the person's name", required: true },
      'password-file': passwordFile,
    },
    example: 'feedbackctl operators create --email ops@example.com --name "Operations" --password-file ops.txt',
    run: (c) => c.client.createOperator({ email: c.need('email'), name: c.need('name'), ...password(c.opt('password-file')) }),
  },
  {
    group: 'operators',
    action: 'list',
    summary: 'list the operators, newest first',
    options: { ...paging },
    example: 'feedbackctl operators list',
    run: (c) => c.client.listOperators({ page_size: c.opt('page-size'), page_token: c.opt('page-token') }),
  },
];
