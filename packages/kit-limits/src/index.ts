export * from './fixed-window.js';
export * from './limits-config.js';
export * from './limits-config.source.js';
export * from './memory-admission.js';
export * from './rate-limit-headers.js';
export * from './tier-limiter.js';
