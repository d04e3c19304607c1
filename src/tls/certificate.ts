import 'reflect-metadata'; // @peculiar/x509 resolves its providers through tsyringe, which needs it
import { webcrypto, X509Certificate } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type KeyPair = webcrypto.CryptoKeyPair;

/** A TLS identity for the reference server: a throwaway CA and a leaf certificate it signed. */
export interface TlsIdentity {
  /** PEM of the CA certificate: give it to clients as their trust anchor (`--ca`). */
  readonly caPem: string;
  /** PEM of the server certificate (leaf), for 127.0.0.1, ::1 and localhost. */
  readonly certPem: string;
  /** PEM (PKCS#8) of the server's private key. */
  readonly keyPem: string;
  /** SHA-256 fingerprint of the leaf certificate, `AA:BB:…`. */
  readonly fingerprint256: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/**
 * Generates a CA and a server certificate valid for one day (from an hour ago, to tolerate clock skew).
 * ECDSA P-256 keeps generation to a few milliseconds.
 */
export async function generateTlsIdentity(hostnames: readonly string[] = ['localhost']): Promise<TlsIdentity> {
  const notBefore = new Date(Date.now() - 3600_000);
  const notAfter = new Date(Date.now() + 24 * 3600_000);
  const caKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=clockcheck reference CA',
    keys: caKeys,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leafKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    subject: 'CN=clockcheck reference server',
    issuer: ca.subject,
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        ...hostnames.map((value) => ({ type: 'dns' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const certPem = leaf.toString('pem');
  return {
    caPem: ca.toString('pem'),
    certPem,
    keyPem: await privateKeyPem(leafKeys.privateKey),
    fingerprint256: new X509Certificate(certPem).fingerprint256,
  };
}

/** Identity from PEM files supplied by the user (`--cert`, `--key`); the cert doubles as its own CA file. */
export function tlsIdentityFromPem(certPem: string, keyPem: string): TlsIdentity {
  return { caPem: certPem, certPem, keyPem, fingerprint256: new X509Certificate(certPem).fingerprint256 };
}

/** Writes the CA certificate to `dir/ca.pem` and returns its path. */
export async function writeCaFile(identity: TlsIdentity, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'ca.pem');
  await writeFile(path, identity.caPem, { mode: 0o644 });
  return path;
}
