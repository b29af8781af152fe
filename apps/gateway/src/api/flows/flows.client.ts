import { localAddr } from '@feedback/kit-core/runtime';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { unaryPeer } from '../../grpc-peers.js';

/** The flow service; its kit-grpc client is the FlowsPort. */
export const flowPeer = unaryPeer(FlowServiceClient, localAddr('FLOW_GRPC_PORT'));
