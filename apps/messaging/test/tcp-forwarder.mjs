// A plain TCP forwarder for the partition test (netns.ts): `node tcp-forwarder.mjs
// LISTEN_HOST:LISTEN_PORT=TARGET_HOST:TARGET_PORT ...`. Each accepted connection gets one
// connection to its target and bytes are piped both ways; either side closing or failing closes
// the other. Prints "ready" once every listener is bound. No timeouts of its own: when the link
// under it is cut, its connections hang as a real network's would.
import net from 'node:net';

const rules = process.argv.slice(2).map((arg) => {
  const m = /^([^:=]+):(\d+)=([^:=]+):(\d+)$/.exec(arg);
  if (!m) throw new Error(`bad rule ${arg}: want LISTEN_HOST:LISTEN_PORT=TARGET_HOST:TARGET_PORT`);
  return { host: m[1], port: Number(m[2]), targetHost: m[3], targetPort: Number(m[4]) };
});

await Promise.all(
  rules.map(
    (r) =>
      new Promise((resolve, reject) => {
        const server = net.createServer((client) => {
          const upstream = net.connect({ host: r.targetHost, port: r.targetPort });
          client.setNoDelay(true);
          upstream.setNoDelay(true);
          client.pipe(upstream);
          upstream.pipe(client);
          client.on('error', () => upstream.destroy());
          upstream.on('error', () => client.destroy());
          client.on('close', () => upstream.destroy());
          upstream.on('close', () => client.destroy());
        });
        server.once('error', reject);
        server.listen(r.port, r.host, () => resolve(undefined));
      }),
  ),
);
process.stdout.write('ready\n');
process.on('SIGTERM', () => process.exit(0));
