import { filePeer } from './api/files/files.client.js';
import { flowPeer } from './api/flows/flows.client.js';
import { messagingPeer } from './api/sms/sms.client.js';
import { surveyPeer } from './api/surveys/surveys.client.js';
import { webhooksPeer } from './api/webhooks/webhooks.client.js';
import { shortenerPeer } from './links/links.client.js';

/** Every gRPC service the gateway calls, one row each; env.ts reads `<NAME>_GRPC_ADDR` per row. */
export const PEERS = {
  flow: flowPeer,
  file: filePeer,
  shortener: shortenerPeer,
  survey: surveyPeer,
  messaging: messagingPeer,
  webhooks: webhooksPeer,
};
