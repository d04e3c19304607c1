import type { TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import type { CertificatePin } from '../../tls/certificate-pin.ts';

/**
 * undici's connector, and under a pin a check of each new connection's certificate before anything
 * is written on it: another certificate than the first is a TLS error (`ERR_TLS_CERT_PINNED`).
 */
export function pinnedConnector(base: buildConnector.connector, pin: CertificatePin | null): buildConnector.connector {
  if (pin === null) return base;
  return (options, callback) =>
    base(options, (error, socket) => {
      if (error !== null) return callback(error, null);
      const refused = pin.check((socket as TLSSocket).getPeerX509Certificate?.()?.fingerprint256);
      if (refused === null) return callback(null, socket);
      socket.destroy();
      callback(Object.assign(new Error(refused), { code: 'ERR_TLS_CERT_PINNED' }), null);
    });
}
