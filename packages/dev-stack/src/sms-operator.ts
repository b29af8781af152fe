import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An account's own SMS provider as a small HTTP SMS API, for end-to-end tests: answers every send
 * (`GET /send?to=&text=&dlr=`, as the generic http provider is set up to call it), then calls the
 * delivery-report URL back, delivered or (for the phones in `failing`) UNDELIV with an error code.
 * Set it up for an account with `providerSettings(url)`.
 */
export async function startSmsOperator(failing: Set<string>) {
  let reports = 0;
  const texts = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://operator');
    const to = url.searchParams.get('to') ?? '';
    texts.set(to, url.searchParams.get('text') ?? '');
    const dlr = url.searchParams.get('dlr') ?? '';
    res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    const stat = failing.has(to) || failing.has(to.replace(/^\+/, '')) ? 'UNDELIV&err=EC_ABSENT_SUBSCRIBER' : 'DELIVRD';
    void fetch(`${dlr}&stat=${stat}`).then(() => void reports++);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The body of `PUT /admin/v1/accounts/{id}/sms_provider` that sends through this operator. */
    providerSettings: () => ({
      url: `${url}/send`,
      method: 'GET',
      sender: 'ACME',
      query: { to: '{to}', text: '{text}', dlr: '{dlr_url}' },
      dlr: { status_param: 'stat', delivered: ['DELIVRD'], failed: ['UNDELIV'], error_param: 'err' },
    }),
    reports: () => reports,
    /** The text last sent to a phone (as the provider was given it: with or without the plus). */
    textTo: (phone: string) => texts.get(phone) ?? texts.get(`+${phone}`),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
