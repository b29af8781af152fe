/**
 * TRUST_PROXY as fastify's `trustProxy`: "false" (default: the TCP peer is the client, and
 * X-Forwarded-For is ignored, so a caller cannot pick its own rate-limit key), "true" (believe
 * any proxy: only behind one that overwrites the header), a hop count, or a comma-separated
 * list of proxy IPs/CIDRs.
 */
export function parseTrustProxy(value: string): boolean | string | ((addr: string, hop: number) => boolean) {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_addr, hop) => hop < hops;
  }
  return value.trim();
}
