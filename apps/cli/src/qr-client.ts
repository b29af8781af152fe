import { AdminApiError, ApiUnreachableError, unreachableReason } from './admin-client.js';

export interface QrParams {
  format?: string;
  size?: string;
  margin?: string;
}

/**
 * A link's QR code image (docs/api.md "QR codes") from `GET {short_url}/qr`, the link listener a
 * phone would reach: on the link's own domain, so a customer domain's link is drawn there. The
 * parameters go as given; the link listener checks them (400 naming the field).
 */
export async function fetchQrImage(shortUrl: string, params: QrParams, doFetch: typeof fetch = fetch) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const url = `${shortUrl}/qr${q.size ? `?${q.toString()}` : ''}`;
  let res: Response;
  try {
    res = await doFetch(url);
  } catch (err) {
    throw new ApiUnreachableError(new URL(shortUrl).origin, unreachableReason(err));
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!res.ok) {
    const text = new TextDecoder().decode(bytes);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // The 404 page of an unknown link is HTML: shown as text.
    }
    throw new AdminApiError(res.status, body, `GET ${new URL(url).pathname}`, res.statusText);
  }
  return { bytes, contentType: res.headers.get('content-type') ?? '' };
}
