export * from './phone-numbers.js';
