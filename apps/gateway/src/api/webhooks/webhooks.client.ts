import { localAddr } from '@feedback/kit-core/runtime';
import { WebhookServiceClient } from '@feedback/proto/feedback/webhooks/v1/webhooks';
import { unaryPeer } from '../../grpc-peers.js';

/** The webhooks service; its kit-grpc client is the WebhooksPort. */
export const webhooksPeer = unaryPeer(WebhookServiceClient, localAddr('WEBHOOKS_GRPC_PORT'));
