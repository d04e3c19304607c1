import { randomBytes, scryptSync } from 'node:crypto';

/**
 * Hashes a password for storage (scrypt, random salt). The reference server never returns it, and
 * its passwords are test data: the cost is kept low (N=64, about 0.1 ms), since every user a run
 * creates is hashed on the request path (N=1024 cost about 0.6 s of an embedded certification).
 */
export function hashPassword(password: string): string {
  const salt = randomBytes(8);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 16, { N: 64 }).toString('hex')}`;
}
