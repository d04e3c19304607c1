/**
 * Under `--insecure` no certificate is verified, so nothing would stop a different server from
 * taking the target's place mid-run (a DNS change, a hijacked route) and receiving the token. The
 * pin holds the certificate the target presented first — on the preflight's connection — and every
 * later connection of the run (client, bursts, `load`) must present the same one. Without
 * `--insecure` no pin is used: a certificate renewed behind a load balancer still verifies.
 */
export class CertificatePin {
  #fingerprint: string | null = null;

  /** The SHA-256 fingerprint pinned (`AA:BB:…`), or null before the first connection. */
  get fingerprint(): string | null {
    return this.#fingerprint;
  }

  /**
   * Accepts the first certificate seen, and afterwards only the same one.
   * @returns null when accepted, else why not, in words for the exchange's error.
   */
  check(fingerprint: string | undefined): string | null {
    if (fingerprint === undefined) return 'the target presented no certificate';
    this.#fingerprint ??= fingerprint;
    if (fingerprint === this.#fingerprint) return null;
    return `the target presented another certificate (SHA-256 ${fingerprint}) than the one it presented first in this run (${this.#fingerprint}), which --insecure pins`;
  }
}
