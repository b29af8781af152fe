import { hash, randomBytes } from 'node:crypto';

export const MIN_PASSWORD_LENGTH = 12;
/** argon2 takes any length; a cap keeps a megabyte "password" from costing more than a hash. */
export const MAX_PASSWORD_LENGTH = 256;

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'must not be the e-mail address';
  return null;
}

/** An e-mail as the deployment compares it: trimmed, lower case. */
export const emailKeyOf = (email: string): string => email.trim().toLowerCase();

/** 256 random bits, base64url: session cookie values, CSRF tokens and invite tokens. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** The secrets carry 256 bits, so a plain SHA-256 is a safe lookup key (as for API tokens). */
export const secretKey = (secret: string): string => hash('sha256', secret, 'hex');
