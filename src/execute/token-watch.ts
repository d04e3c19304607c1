import { RunStopped } from '../errors.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';

/** Confirmation probes a run spends at most on refusals that turned out not to be a revoked token. */
const MAX_PROBES = 3;

/**
 * Notices a token revoked mid-run (§5.4: "it becomes invalid only when explicitly revoked"). When
 * a request signed with the working token is refused (`refused(status)`), one GET /users with the
 * token (served at the preflight) tells a revoked token from a route that refuses for its own
 * reasons. Refused too, the run stops: this send throws RunStopped, and so does every later one,
 * so the checks after it are reported `errored` with the reason instead of failing under rules
 * they do not test. At most MAX_PROBES confirmations are spent in a run.
 */
export class TokenWatch {
  readonly #send: (request: TargetRequest) => Promise<Exchange>;
  readonly #refused: (status: number) => boolean;
  #probes = 0;
  #stopped: RunStopped | null = null;

  constructor(send: (request: TargetRequest) => Promise<Exchange>, refused: (status: number) => boolean) {
    this.#send = send;
    this.#refused = refused;
  }

  /** The RunStopped a send throws now, or null while the run goes on. */
  stopError(): RunStopped | null {
    return this.#stopped;
  }

  /** Sends one request; throws RunStopped once the token is found revoked. */
  async send(request: TargetRequest): Promise<Exchange> {
    if (this.#stopped) throw this.#stopped;
    const exchange = await this.#send(request);
    const status = exchange.response?.status;
    const signed = request.auth === undefined || request.auth === 'token';
    if (!signed || status === undefined || !this.#refused(status) || this.#probes >= MAX_PROBES) return exchange;
    this.#probes++;
    const probe = await this.#send({ method: 'GET', path: '/users' });
    const probeStatus = probe.response?.status;
    if (probeStatus !== undefined && this.#refused(probeStatus)) {
      this.#stopped = new RunStopped(
        `the token was refused from exchange ${exchange.id} on (${exchange.request.method} ${exchange.request.url} answered ${status}, ` +
          `and GET /users, served at the preflight, answered ${probeStatus} in exchange ${probe.id}): it was revoked or expired during the run, so no more requests were sent and the checks from here on errored`,
      );
      throw this.#stopped;
    }
    return exchange;
  }
}
