// The pure part of kit-core: what domain code may use. Nothing here starts, reads or writes
// anything of the process (its environment, files, streams, signals); that is ./runtime.ts.
export * from './clock.js';
export * from './errors.js';
export * from './dates.js';
export * from './nps.js';
export * from './paging.js';
export * from './unicode.js';
export * from './question-styles.js';
export * from './outage.js';
export * from './name-based-uuid.js';
export * from './personal-data.js';
export * from './secret-cipher.js';
export * from './retention.js';
export * from './customer-attributes.js';
export * from './answers.js';
// The logger a use case is handed: pino's type only, nothing of pino is loaded through it.
export type { Logger } from 'pino';
