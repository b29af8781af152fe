import { errors } from '@feedback/kit-core';
import { normalizePhone } from '@feedback/kit-phone';

/** A phone as a caller writes it (any notation), normalized; INVALID_ARGUMENT naming `phone` when it is no number. */
export function phoneOf(written: string, region: string): string {
  const r = normalizePhone(written, region);
  if (!r.ok) throw errors.invalid({ phone: r.reason });
  return r.phone;
}

/** A list's page query: its optional phone filter normalized (empty: every phone), its size 1-500 (50 by default). */
export function phonePage(q: { phone?: string; limit?: number }, region: string): { phone?: string; limit: number } {
  return {
    phone: q.phone ? phoneOf(q.phone, region) : undefined,
    limit: Math.min(Math.max(q.limit ?? 50, 1), 500),
  };
}
