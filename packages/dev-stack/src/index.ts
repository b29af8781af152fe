export { readStackFile, s3Settings, type StackFile } from './stack-file.js';
export { freePort } from './free-port.js';
export { startRedisServer } from './redis-server.js';
export { makeTestCertificates, type TestCertificates } from './test-certificates.js';
export { startAppProcess, type AppName, type AppProcess, type LogLine } from './app-process.js';
export { repoPath } from './repo-root.js';
export { explainFinds, queryPlan } from './query-plan.js';
export { startSmsOperator } from './sms-operator.js';
export { privateErasureAndRetention } from './private-topics.js';
