import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';

/**
 * Adapts an async function to a grpc-js unary handler, so service handlers read as
 * "decode, call one use case, encode". A rejection reaches the server wrapper, which maps
 * AppErrors to statuses.
 */
export function unary<Req, Res>(fn: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    fn(call.request, call).then(
      (res) => callback(null, res),
      (err: unknown) => callback(err as Error),
    );
  };
}
