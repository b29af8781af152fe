import { localAddr } from '@feedback/kit-core/runtime';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { unaryPeer } from '../grpc-peers.js';

/** The shortener service; its kit-grpc client serves the link listener and the links admin routes. */
export const shortenerPeer = unaryPeer(ShortenerServiceClient, localAddr('SHORTENER_GRPC_PORT'));
