import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  /** PEM files: the CA, and a server certificate it signed with its key (PKCS#8, unencrypted). */
  caFile: string;
  certFile: string;
  keyFile: string;
  /** Another CA that signed nothing here: a client trusting only it must refuse the server. */
  otherCaFile: string;
  /** The server's certificate followed by its key, as Kafka's PEM keystore wants them in one file. */
  certAndKeyFile: string;
}

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });

function makeCa(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  openssl([
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout', key, '-out', cert,
  ]); // prettier-ignore
  return { cert, key };
}

/**
 * A throw-away CA and a server certificate for `subjectAltNames` (e.g. ['IP:127.0.0.1']), made
 * with the machine's openssl in `dir`, for tests that start their own TLS servers.
 */
export function makeTestCertificates(dir: string, subjectAltNames: string[]): TestCertificates {
  const ca = makeCa(dir, 'test-ca');
  const other = makeCa(dir, 'other-ca');
  const keyFile = join(dir, 'server.key');
  const csr = join(dir, 'server.csr');
  const certFile = join(dir, 'server.crt');
  const ext = join(dir, 'server.ext');
  writeFileSync(
    ext,
    [
      `subjectAltName=${subjectAltNames.join(',')}`,
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth,clientAuth',
    ].join('\n'),
  );
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=test-server', '-keyout', keyFile, '-out', csr]);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    ext,
    '-out',
    certFile,
  ]);
  const certAndKeyFile = join(dir, 'server-cert-and-key.pem');
  writeFileSync(certAndKeyFile, readFileSync(certFile, 'utf8') + readFileSync(keyFile, 'utf8'));
  return { caFile: ca.cert, certFile, keyFile, otherCaFile: other.cert, certAndKeyFile };
}
