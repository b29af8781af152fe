import type { Command } from './command.js';
import { readJsonFile } from './file-input.js';

const account = { value: 'ID', help: 'the account', required: true };

export const smsProviderCommands: Command[] = [
  {
    group: 'sms-provider',
    action: 'set',
    summary: "set the account's own SMS provider: the JSON of SMS_HTTP_PROVIDER plus sender; prints it masked",
    options: {
      account,
      file: {
        value: 'provider.json|-',
        help: 'the provider (apps/messaging/README.md "Account providers"); - reads stdin',
        required: true,
      },
      sender: { value: 'NAME', help: "the sender name, instead of the file's" },
    },
    example: 'feedbackctl sms-provider set --account ACCOUNT_ID --file provider.json --sender ACME',
    run: (c) => {
      const provider = readJsonFile(c.need('file'));
      const sender = c.opt('sender');
      return c.client.putSmsProvider(c.need('account'), sender ? { ...provider, sender } : provider);
    },
  },
  {
    group: 'sms-provider',
    action: 'show',
    summary: "show the account's provider, credentials masked",
    options: { account },
    example: 'feedbackctl sms-provider show --account ACCOUNT_ID',
    run: (c) => c.client.getSmsProvider(c.need('account')),
  },
  {
    group: 'sms-provider',
    action: 'remove',
    summary: "remove the account's provider: back to the deployment's",
    options: { account },
    example: 'feedbackctl sms-provider remove --account ACCOUNT_ID',
    run: async (c) => {
      await c.client.deleteSmsProvider(c.need('account'));
      return { removed: 'sms_provider', account_id: c.need('account') };
    },
  },
];
