export * from './keyset-page.js';
export * from './mongo.js';
export * from './mongo-lease.js';
export * from './periodic-job.js';
export * from './redis.js';
export * from './retention.js';
export * from './s3.js';
export * from './store-connections.js';
