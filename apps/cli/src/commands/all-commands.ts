import { accountCommands, nodeCommands } from './accounts.commands.js';
import type { Command } from './command.js';
import { erasureCommands } from './erasures.commands.js';
import { channelCommands, flowCommands, responseCommands } from './flows.commands.js';
import { domainCommands, linkCommands } from './links.commands.js';
import { limitsCommands } from './limits.commands.js';
import { retentionCommands } from './retention.commands.js';
import { seedCommands } from './seed.commands.js';
import { smsProviderCommands } from './sms-provider.commands.js';
import { bindingCommands, campaignCommands, sharingCommands, smsMessageCommands } from './sms.commands.js';
import { tokenCommands } from './tokens.commands.js';
import { operatorCommands, userCommands } from './users.commands.js';
import { webhookCommands } from './webhooks.commands.js';

/** Every command, in the order --help lists them. */
export const ALL_COMMANDS: Command[] = [
  ...accountCommands,
  ...tokenCommands,
  ...userCommands,
  ...operatorCommands,
  ...nodeCommands,
  ...flowCommands,
  ...channelCommands,
  ...campaignCommands,
  ...bindingCommands,
  ...smsProviderCommands,
  ...limitsCommands,
  ...retentionCommands,
  ...erasureCommands,
  ...sharingCommands,
  ...smsMessageCommands,
  ...responseCommands,
  ...webhookCommands,
  ...domainCommands,
  ...linkCommands,
  ...seedCommands,
];
