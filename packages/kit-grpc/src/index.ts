export { startGrpcServer, type GrpcServerOptions, type GrpcServiceRegistration, type RunningGrpcServer } from './server.js';
export {
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
