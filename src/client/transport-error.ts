import type { TransportErrorCode } from './exchange.ts';
import { errorMessage } from './_internals/error-message.ts';

/** What a failed exchange reports; the message is redacted later, with the rest of the exchange. */
export interface TransportFailure {
  readonly code: TransportErrorCode;
  readonly message: string;
}

const BY_CODE: Readonly<Record<string, TransportErrorCode>> = {
  UND_ERR_CONNECT_TIMEOUT: 'CONNECT_TIMEOUT',
  ETIMEDOUT: 'CONNECT_TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'HEADERS_TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'BODY_TIMEOUT',
  ECONNREFUSED: 'CONNECTION_REFUSED',
  ECONNRESET: 'CONNECTION_RESET',
  EPIPE: 'CONNECTION_RESET',
  ECONNABORTED: 'CONNECTION_RESET',
  // undici: "other side closed" and friends, a premature end of the response
  UND_ERR_SOCKET: 'CONNECTION_RESET',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'CONNECTION_RESET',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'RESPONSE_TOO_LARGE',
  EPROTO: 'TLS_ERROR',
};

/** OpenSSL verification codes and node's TLS codes (`ERR_TLS_…`, `ERR_SSL_…`). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_)|CERT|SIGNATURE|ISSUER|SELF_SIGNED|HOSTNAME_MISMATCH/;

/** Classifies an error from undici or node's sockets, looking through `cause` chains. */
export function transportFailure(error: unknown): TransportFailure {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') {
      const known = BY_CODE[code] ?? (TLS_CODE.test(code) ? 'TLS_ERROR' : undefined);
      if (known) return { code: known, message: errorMessage(error) };
    }
    cause = cause.cause;
  }
  return { code: 'OTHER', message: errorMessage(error) };
}
