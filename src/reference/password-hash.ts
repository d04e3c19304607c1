import { randomBytes, scryptSync } from 'node:crypto';

/** Hashes a password for storage (scrypt, random salt). The reference server never returns it. */
export function hashPassword(password: string): string {
  const salt = randomBytes(8);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 16, { N: 1024 }).toString('hex')}`;
}
