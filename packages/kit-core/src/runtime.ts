// `@feedback/kit-core/runtime`: what a process needs to run (configuration from its environment,
// the logger, request context, shutdown, the local stack's ports). Not for domain/ code (eslint.config.js).
export * from './config.js';
export * from './logger.js';
export * from './request-context.js';
export * from './shutdown.js';
export * from './local-ports.js';
