// The image's own health check, for runtimes without Kubernetes' probes (docker-compose.yml), with nothing
// but node and the image's @grpc/grpc-js:
//   node /app/healthcheck.mjs grpc PORT        grpc.health.v1.Health/Check, as Kubernetes' gRPC probe asks it
//   node /app/healthcheck.mjs http PORT PATH   GET http://127.0.0.1:PORT/PATH, as its HTTP probe does
// Exit code 0: serving; 1: not (the reason on stderr).
import { Buffer } from 'node:buffer';
import { get } from 'node:http';

const [kind, port, path = '/'] = process.argv.slice(2);
const fail = (why) => {
  console.error(`unhealthy: ${why}`);
  process.exit(1);
};
if (!/^\d+$/.test(port ?? '')) fail('usage: healthcheck.mjs grpc PORT | http PORT PATH');

if (kind === 'grpc') {
  // An empty HealthCheckRequest (service "": the whole server) is zero bytes; the answer SERVING is
  // field 1 = 1, i.e. the bytes 08 01: no protobuf library needed.
  const { default: grpc } = await import('@grpc/grpc-js');
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const serving = Buffer.from([0x08, 0x01]);
  client.makeUnaryRequest(
    '/grpc.health.v1.Health/Check',
    (b) => b,
    (b) => b,
    Buffer.alloc(0),
    { deadline: Date.now() + 3000 },
    (err, res) => {
      client.close();
      if (err) fail(err.message);
      if (!res.equals(serving)) fail(`status bytes ${res.toString('hex') || '(none: UNKNOWN)'}`);
      process.exit(0);
    },
  );
} else if (kind === 'http') {
  const req = get({ host: '127.0.0.1', port: Number(port), path, timeout: 3000 }, (res) => {
    res.resume();
    if (res.statusCode >= 200 && res.statusCode < 400) process.exit(0);
    fail(`HTTP ${res.statusCode}`);
  });
  req.on('timeout', () => req.destroy(new Error('no answer within 3 s')));
  req.on('error', (err) => fail(err.message));
} else {
  fail(`unknown kind ${kind}`);
}
