import { randomBytes, scryptSync } from 'node:crypto';

/**
 * Hashes a password for storage (scrypt, random salt). The reference server never returns it, and
 * its passwords are test data: the cost is kept low (N=16, r=1: about 0.05 ms; N=64 with the
 * default r=8 took 0.3 ms, some 3 % of a selftest's CPU), since every user a run creates is hashed
 * on the request path (N=1024 cost about 0.6 s of an embedded certification).
 */
export function hashPassword(password: string): string {
  const salt = randomBytes(8);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 16, { N: 16, r: 1, p: 1 }).toString('hex')}`;
}
