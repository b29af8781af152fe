// `helm test <release>`: what the chart's test Pod (templates/tests/checks.yaml) runs with the image's own node,
// from /app, whose node_modules holds @grpc/grpc-js (`node --input-type=module -e`: no file in the image needed).
// It checks what an operator needs to know after an install or upgrade, through the Services as clients use them:
//   - the gateway's GET /ready answers 200 (it serves and is not draining);
//   - one API call answers with the API's error body: GET /v1/sms_campaigns without a token is
//     401 {error_message, data, code: 13001, errors} (docs/errors.md);
//   - every pod of every gRPC service answers grpc.health.v1.Health/Check SERVING (the headless Service
//     resolves to each ready pod).
// Settings: API_URL (http://<gateway Service>:<port>), GRPC_SERVICES (name=host:port,...), ATTEMPTS (default 3).
// Each check is tried up to ATTEMPTS times, 2 s apart (a pod may just have been replaced); exit code 1 if any failed.
import { Buffer } from 'node:buffer';
import { promises as dns } from 'node:dns';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import grpc from '@grpc/grpc-js';

const TIMEOUT_MS = 5000;
const ATTEMPTS = Number(process.env.ATTEMPTS) || 3;
const API_URL = (process.env.API_URL || '').replace(/\/$/, '');
const GRPC_SERVICES = (process.env.GRPC_SERVICES || '')
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const [name, target] = entry.split('=');
    const at = target.lastIndexOf(':');
    return { name, host: target.slice(0, at), port: Number(target.slice(at + 1)) };
  });

function get(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
  });
}

async function ready() {
  const res = await get(`${API_URL}/ready`);
  if (res.status !== 200) throw new Error(`GET /ready: HTTP ${res.status}`);
  return 'GET /ready 200';
}

async function errorBody() {
  const res = await get(`${API_URL}/v1/sms_campaigns`);
  if (res.status !== 401) throw new Error(`GET /v1/sms_campaigns without a token: HTTP ${res.status}, not 401`);
  let body;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Error('GET /v1/sms_campaigns: the 401 body is not JSON');
  }
  const missing = ['error_message', 'data', 'code', 'errors'].filter((key) => !(key in body));
  if (missing.length > 0) throw new Error(`GET /v1/sms_campaigns: the error body lacks ${missing.join(', ')}`);
  if (body.code !== 13001) throw new Error(`GET /v1/sms_campaigns: code ${body.code}, not 13001`);
  return 'GET /v1/sms_campaigns without a token: 401, code 13001';
}

// An empty HealthCheckRequest (the whole server) is zero bytes; SERVING is field 1 = 1, the bytes 08 01.
function healthCheck(address) {
  return new Promise((resolve, reject) => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure());
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (b) => b,
      (b) => b,
      Buffer.alloc(0),
      { deadline: Date.now() + TIMEOUT_MS },
      (err, res) => {
        client.close();
        if (err) reject(new Error(`${address}: ${err.message}`));
        else if (!res.equals(Buffer.from([0x08, 0x01]))) reject(new Error(`${address}: not SERVING (${res.toString('hex') || 'UNKNOWN'})`));
        else resolve();
      },
    );
  });
}

async function grpcHealth({ host, port }) {
  const addresses = await dns.lookup(host, { all: true });
  if (addresses.length === 0) throw new Error(`${host}: no ready pod`);
  const targets = addresses.map((a) => (a.family === 6 ? `[${a.address}]:${port}` : `${a.address}:${port}`));
  await Promise.all(targets.map(healthCheck));
  return `grpc.health.v1 SERVING on ${targets.length} pod(s)`;
}

async function attempt(name, check) {
  for (let i = 1; ; i++) {
    try {
      console.log(`ok   ${name}: ${await check()}`);
      return true;
    } catch (err) {
      if (i >= ATTEMPTS) {
        console.log(`FAIL ${name}: ${err.message}`);
        return false;
      }
      await sleep(2000);
    }
  }
}

if (!API_URL && GRPC_SERVICES.length === 0) {
  console.log('FAIL nothing to check: API_URL and GRPC_SERVICES are empty');
  process.exit(1);
}
const results = [];
if (API_URL) {
  results.push(await attempt('gateway ready', ready));
  results.push(await attempt('API error body', errorBody));
}
for (const service of GRPC_SERVICES) results.push(await attempt(service.name, () => grpcHealth(service)));
const failed = results.filter((ok) => !ok).length;
console.log(failed === 0 ? `all ${results.length} checks passed` : `${failed} of ${results.length} checks failed`);
process.exit(failed === 0 ? 0 : 1);
