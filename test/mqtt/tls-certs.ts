// A private CA and server certificates made with `openssl` (Debian's openssl), as a
// venue makes them for its broker: the CA's certificate is what mqtt.caFile names,
// and each server certificate lists the names and addresses it is good for.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Ca {
  /** The CA's certificate (PEM): what mqtt.caFile and mosquitto_sub --cafile are given. */
  readonly certFile: string;
  readonly keyFile: string;
}

export interface ServerCert {
  readonly certFile: string;
  readonly keyFile: string;
}

function openssl(args: readonly string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
}

// P-256 keys: made in milliseconds, and every TLS stack here speaks them.
const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makeCa(dir: string, name: string): Ca {
  const certFile = path.join(dir, `${name}.pem`);
  const keyFile = path.join(dir, `${name}.key`);
  openssl(['req', '-x509', ...KEY, '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', `/CN=${name}`]);
  return { certFile, keyFile };
}

/**
 * A server certificate signed by `ca`, good for `altNames` (`IP:127.0.0.1`, `DNS:broker.venue.test`)
 * only, for `days` from now (-1: it expired a day ago, as openssl writes it).
 */
export function makeServerCert(dir: string, ca: Ca, name: string, altNames: readonly string[], days = 2): ServerCert {
  const certFile = path.join(dir, `${name}.pem`);
  const keyFile = path.join(dir, `${name}.key`);
  const request = path.join(dir, `${name}.csr`);
  const extensions = path.join(dir, `${name}.ext`);
  writeFileSync(extensions, `subjectAltName=${altNames.join(',')}\nextendedKeyUsage=serverAuth\n`);
  openssl(['req', ...KEY, '-keyout', keyFile, '-out', request, '-subj', `/CN=${name}`]);
  openssl(['x509', '-req', '-in', request, '-CA', ca.certFile, '-CAkey', ca.keyFile, '-CAcreateserial', '-out', certFile, '-days', String(days), '-extfile', extensions]);
  return { certFile, keyFile };
}
