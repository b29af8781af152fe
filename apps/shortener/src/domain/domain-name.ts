import { errors } from '@feedback/kit-core';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A customer domain as we store and compare it: lower case, IDNs in their ASCII (xn--) form.
 * Only a bare host name is accepted (no scheme, port or path), with at least two labels and
 * a top-level label that is not all digits (so no IP addresses).
 */
export function normalizeDomainName(input: unknown, field = 'domain'): string {
  const bad = (reason: string) => errors.invalid({ [field]: reason });
  if (typeof input !== 'string' || input.trim() === '') throw bad('is required');
  if (input.length > 253 || /[\s/:?#@\\[\]%]/.test(input)) throw bad('must be a host name such as go.example.com');
  let host: string;
  try {
    host = new URL(`https://${input}`).hostname;
  } catch {
    throw bad('must be a host name such as go.example.com');
  }
  const labels = host.replace(/\.$/, '').split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(tld)) {
    throw bad('must be a host name such as go.example.com');
  }
  return labels.join('.');
}
