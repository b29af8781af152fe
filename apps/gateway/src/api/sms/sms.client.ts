import { localAddr } from '@feedback/kit-core/runtime';
import { MessagingServiceClient } from '@feedback/proto/feedback/messaging/v1/messaging';
import { unaryPeer } from '../../grpc-peers.js';

/** The messaging service; its kit-grpc client is the SmsPort. */
export const messagingPeer = unaryPeer(MessagingServiceClient, localAddr('MESSAGING_GRPC_PORT'));
