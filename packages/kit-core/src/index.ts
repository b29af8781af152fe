export * from './config.js';
export * from './errors.js';
export * from './logger.js';
export * from './request-context.js';
export * from './shutdown.js';
export * from './stack-file.js';
export * from './dates.js';
