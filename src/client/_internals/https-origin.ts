import { ClockcheckError } from '../../errors.ts';

/**
 * The origin of `origin` (`https://host[:port]`, normalized as URL does), for a client that speaks
 * HTTPS only (§1), or plain HTTP when the user allowed it (`--allow-http`).
 * @throws ClockcheckError for an origin that is not a URL or not HTTPS.
 */
export function httpsOrigin(origin: string, allowPlainHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new ClockcheckError('CLOCKCHECK_INTERNAL', `origin is not a URL: ${origin}`);
  }
  if (url.protocol !== 'https:' && !(allowPlainHttp && url.protocol === 'http:')) {
    throw new ClockcheckError('CLOCKCHECK_INTERNAL', `origin must be https:// (§1: HTTPS only), not ${url.protocol}`);
  }
  return url.origin;
}
