/**
 * Console passwords: the policy (at least 12 characters, not a common password) and hashing with
 * scrypt, a memory-hard function built into Node (no native addon). The stored form names its
 * parameters, so they can be raised later without invalidating existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import zxcvbnCore from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** OWASP's scrypt setting N=2^16, r=8, p=2 (64 MiB per hash). */
const PARAMS = { N: 2 ** 16, r: 8, p: 2 };
const KEY_LENGTH = 32;

/** ~49,000 common passwords (zxcvbn-ts' list, from leaked-password corpora), lower-cased. */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return common;
}

/** zxcvbn's score (0-4) a password needs: 3, "safely unguessable" (ASVS 2.1.8 asks for a strength meter). */
export const MIN_PASSWORD_SCORE = 3;

/** zxcvbn-ts with the common and English dictionaries and keyboard graphs (built once, on first use: ~1 s). */
let estimator: InstanceType<typeof zxcvbnCore.ZxcvbnFactory> | undefined;
function strength(password: string, userInputs: string[]): number {
  estimator ??= new zxcvbnCore.ZxcvbnFactory({ graphs: adjacencyGraphs, dictionary: { ...dictionary, ...englishDictionary } });
  return estimator.check(password, userInputs).score;
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'is a commonly used password; choose another';
  if (/^(.)\1+$/.test(password)) return 'must not be one repeated character';
  if (email && lower.includes(email.toLowerCase().split('@')[0] ?? '\u0000') && lower.length - (email.split('@')[0]?.length ?? 0) < 6) {
    return 'must not be built from your email address';
  }
  // Guessability as an attacker's cracking model sees it (dictionary words, keyboard walks, years,
  // the email's own name): `Password12345`, `qwertyuiopas` or `ravi123456` score 1.
  const inputs = email ? [email.toLowerCase(), ...email.toLowerCase().split(/[@.+_-]/).filter((p) => p.length >= 3)] : [];
  const score = strength(password, inputs);
  if (score < MIN_PASSWORD_SCORE) return `is too easy to guess (strength ${score} of 4, ${MIN_PASSWORD_SCORE} needed): use more words or a longer phrase`;
  return null;
}

function derive(password: string, salt: Buffer, p: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...p, maxmem: 256 * p.N * p.r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: unknown emails cost a sign-in the same time as known ones. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
