import crypto from 'node:crypto';
import { verifyPassword as verifyLegacy } from 'better-auth/crypto';

/**
 * scrypt at one of OWASP's recommended settings (Password Storage Cheat Sheet): N=2^15, r=8, p=3 — 32 MiB and
 * the same work as N=2^17, r=8, p=1 at a quarter of the memory per concurrent hash. better-auth's default
 * (N=2^14, r=16, p=1) does a third of that work, so we hash ourselves and keep verifying the old format.
 */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 3, keyLength: 64, saltBytes: 16 } as const;

const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize('NFKC'),
      salt,
      SCRYPT.keyLength,
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$<salt b64>$<key b64>`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SCRYPT.saltBytes);
  const key = await derive(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p);
  return [PREFIX, SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Verifies our format in constant time; hashes made by better-auth's default (`salt:key`) still verify. */
export async function verifyPassword({
  hash,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  const parts = hash.split('$');
  if (parts[0] !== PREFIX) return verifyLegacy({ hash, password });
  const [, n, r, p, salt, key] = parts;
  if (!n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
