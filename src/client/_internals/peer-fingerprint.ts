import { isIP } from 'node:net';
import { connect } from 'node:tls';

export interface PeerTarget {
  /** Host name or IP address, without IPv6 brackets. */
  readonly host: string;
  readonly port: number;
  readonly ca?: string;
  readonly rejectUnauthorized: boolean;
  readonly timeoutMs: number;
}

/**
 * The SHA-256 fingerprint (`AA:BB:…`) of the certificate a TLS server presents, or null when no
 * handshake completes within `timeoutMs` (refused, untrusted, not TLS).
 */
export function peerFingerprint(target: PeerTarget): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({
      host: target.host,
      port: target.port,
      ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
      ...(target.ca === undefined ? {} : { ca: target.ca }),
      rejectUnauthorized: target.rejectUnauthorized,
    });
    const settle = (fingerprint: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(fingerprint);
    };
    const timer = setTimeout(() => settle(null), target.timeoutMs);
    socket.once('secureConnect', () => settle(socket.getPeerX509Certificate()?.fingerprint256 ?? null));
    socket.once('error', () => settle(null));
  });
}
