#!/usr/bin/env -S node --import tsx
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readStackFile } from '@feedback/dev-stack';
import { adminClient, AdminApiError } from './admin-client.js';
import { seed } from './seed.js';

const USAGE = `feedbackctl: the admin API from the command line

  accounts create --name NAME
  tokens create --account ID --kind api|integration --name NAME
  tokens list --account ID
  tokens revoke --account ID --token TOKEN_ID
  nodes create --account ID --name NAME
  flows create --account ID --file flow.json
  channels create --account ID --name NAME --node NODE_ID --flow FLOW_ID [--ttl-days DAYS]
  channels list --account ID
  campaigns create --account ID --name NAME --node NODE_ID --flow FLOW_ID --template TEXT [--ttl-days DAYS]
                           an SMS campaign; TEXT needs {{link}}, may use {{name}} and other attributes
  campaigns list --account ID
  bindings create --account ID --campaign CAMPAIGN_ID --directory DIRECTORY_ID [--file-name NAME]
                           the CSV workflow: each upload of NAME (default customers.csv) into the
                           directory sends the campaign's SMS to its rows
  bindings list --account ID --campaign CAMPAIGN_ID
  bindings remove --account ID --campaign CAMPAIGN_ID --directory DIRECTORY_ID [--file-name NAME]
  sms-provider set --account ID --file provider.json|- [--sender NAME]
                           the account's own SMS provider: the JSON of SMS_HTTP_PROVIDER plus sender
                           (apps/messaging/README.md "Account providers"); - reads stdin; prints it masked
  sms-provider show --account ID     the account's provider, credentials masked
  sms-provider remove --account ID   back to the deployment's provider
  seed                     a demo account, both token kinds, a node, a flow, a channel,
                           a working personal survey link and an SMS campaign

Options: --url BASE_URL --admin-token TOKEN (default: FEEDBACK_BASE_URL / FEEDBACK_ADMIN_TOKEN,
else the running local stack's .local/stack.json). Output is JSON.`;

function connection(values: { url?: string; 'admin-token'?: string }) {
  let baseUrl = values.url ?? process.env.FEEDBACK_BASE_URL;
  let adminToken = values['admin-token'] ?? process.env.FEEDBACK_ADMIN_TOKEN;
  if (!baseUrl || !adminToken) {
    const stack = readStackFile();
    baseUrl ??= stack.base_url;
    adminToken ??= stack.admin_token;
  }
  if (!baseUrl || !adminToken) throw new Error('no base URL or admin token: pass --url and --admin-token');
  return { baseUrl, client: adminClient({ baseUrl, adminToken }) };
}

function ttlDays(ttl: string | undefined): { link_ttl_days?: number } {
  if (ttl !== undefined && !/^\d+$/.test(ttl)) throw new Error('--ttl-days must be a whole number of days');
  return ttl ? { link_ttl_days: Number(ttl) } : {};
}

/** The provider's JSON; a parse error names the file only, since the text holds credentials. */
function readProviderFile(file: string): Record<string, unknown> {
  const text = readFileSync(file === '-' ? 0 : file, 'utf8');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${file === '-' ? 'stdin' : file} is not valid JSON`);
  }
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'admin-token': { type: 'string' },
      name: { type: 'string' },
      account: { type: 'string' },
      kind: { type: 'string' },
      token: { type: 'string' },
      file: { type: 'string' },
      node: { type: 'string' },
      flow: { type: 'string' },
      'ttl-days': { type: 'string' },
      template: { type: 'string' },
      campaign: { type: 'string' },
      directory: { type: 'string' },
      'file-name': { type: 'string' },
      sender: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const need = (k: keyof typeof values) => {
    const v = values[k];
    if (typeof v !== 'string' || v === '') throw new Error(`--${k} is required`);
    return v;
  };
  const [group, action] = positionals;
  if (values.help || !group) return USAGE;
  const { baseUrl, client } = connection(values);
  switch (`${group} ${action ?? ''}`.trim()) {
    case 'accounts create':
      return client.createAccount(need('name'));
    case 'tokens create': {
      const kind = need('kind');
      if (kind !== 'api' && kind !== 'integration') throw new Error('--kind must be api or integration');
      return client.createToken(need('account'), kind, need('name'));
    }
    case 'tokens list':
      return client.listTokens(need('account'));
    case 'tokens revoke':
      return (await client.revokeToken(need('account'), need('token'))) ?? { revoked: values.token };
    case 'nodes create':
      return client.createNode(need('account'), need('name'));
    case 'flows create':
      return client.createFlow(need('account'), JSON.parse(readFileSync(need('file'), 'utf8')));
    case 'channels create':
      return client.createChannel(need('account'), {
        name: need('name'),
        node_id: need('node'),
        flow_id: need('flow'),
        ...ttlDays(values['ttl-days']),
      });
    case 'channels list':
      return client.listChannels(need('account'));
    case 'campaigns create':
      return client.createCampaign(need('account'), {
        name: need('name'),
        node_id: need('node'),
        flow_id: need('flow'),
        message_template: need('template'),
        ...ttlDays(values['ttl-days']),
      });
    case 'campaigns list':
      return client.listCampaigns(need('account'));
    case 'bindings create':
      return client.bindDirectory(need('account'), need('campaign'), {
        directory_id: need('directory'),
        ...(values['file-name'] ? { file_name: values['file-name'] } : {}),
      });
    case 'bindings list':
      return client.listBindings(need('account'), need('campaign'));
    case 'bindings remove':
      await client.unbindDirectory(need('account'), need('campaign'), need('directory'), values['file-name']);
      return { removed: { directory_id: values.directory, file_name: values['file-name'] ?? 'customers.csv' } };
    case 'sms-provider set': {
      const provider = readProviderFile(need('file'));
      return client.putSmsProvider(need('account'), values.sender ? { ...provider, sender: values.sender } : provider);
    }
    case 'sms-provider show':
      return client.getSmsProvider(need('account'));
    case 'sms-provider remove':
      await client.deleteSmsProvider(need('account'));
      return { removed: 'sms_provider', account_id: values.account };
    case 'seed':
      return seed(client, { baseUrl });
    default:
      throw new Error(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  }
}

run(process.argv.slice(2)).then(
  (out) => console.log(typeof out === 'string' ? out : JSON.stringify(out, null, 2)),
  (err: unknown) => {
    if (err instanceof AdminApiError) console.error(JSON.stringify(err.body, null, 2));
    else console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
