export {
  DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
  DEFAULT_MAX_CONNECTION_AGE_MS,
  grpcListenOptions,
  grpcServerEnv,
  startGrpcServer,
  type GrpcServerOptions,
  type GrpcServiceRegistration,
  type RunningGrpcServer,
} from './server.js';
export {
  balancedChannelOptions,
  createGrpcClient,
  type GrpcClient,
  type GrpcClientConstructor,
  type GrpcClientOptions,
  type PromiseClient,
  type UnaryCallOptions,
} from './client.js';
export { appErrorToStatus, statusToAppError, ERROR_DETAIL_KEY } from './error-mapping.js';
export { callMetadata, contextFromMetadata } from './metadata.js';
export { createHealthService } from './health.service.js';
export { unary } from './unary.js';
export { memoizeSerialization } from './memoized-answers.js';
export { CALL_POLICIES, RETRY_POLICY, RETRY_THROTTLING, retriedMethods, serviceConfigFor, type CallKind } from './call-policy.js';
