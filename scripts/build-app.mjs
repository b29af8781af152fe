// Bundles one app (run from its folder) into dist/main.js for containers: our workspace
// packages are inlined, npm dependencies stay external and are installed in the image. A
// worker thread's entry (src/NAME.main.ts, started by main.ts) becomes dist/NAME.main.js.
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@feedback/'));
const threads = readdirSync('src').filter((f) => f.endsWith('.main.ts'));
await build({
  entryPoints: ['src/main.ts', ...threads.map((f) => `src/${f}`)],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [
    ...external,
    // What our workspace packages import: the image installs them hoisted (deploy/image/assemble.sh).
    '@grpc/grpc-js',
    '@bufbuild/protobuf',
    'pino',
    'zod',
    'close-with-grace',
    'mongodb',
    'kafkajs',
    'ioredis',
    'minio',
    'libphonenumber-js',
  ],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log(`built ${pkg.name} → dist/main.js${threads.map((f) => `, dist/${f.replace(/\.ts$/, '.js')}`).join('')}`);
