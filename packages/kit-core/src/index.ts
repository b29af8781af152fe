export * from './clock.js';
export * from './config.js';
export * from './errors.js';
export * from './logger.js';
export * from './request-context.js';
export * from './shutdown.js';
export * from './dates.js';
export * from './unicode.js';
