/** `2026-11-22T09:30:00.123+00:00`: the API's created_at / expired_at form (docs/api.md "Dates") (ISO 8601, offset, ms). */
export function isoWithOffset(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}
