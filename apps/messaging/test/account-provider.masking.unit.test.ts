import { describe, expect, it } from 'vitest';
import { maskSettings, maskTemplate, type AccountProviderSettings } from '../src/providers/domain/account-provider.js';

const base: AccountProviderSettings = {
  url: 'https://api.sms.example.com/v2/send',
  sender: 'ACME',
  query: {},
  headers: {},
  body_encoding: 'json',
  method: 'POST',
  timeout_ms: 5000,
  dlr: { status_param: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV'] },
};

describe('masking a provider for display', () => {
  it('replaces every run of literal text and keeps the placeholders where they stand', () => {
    expect(maskTemplate('{to}')).toBe('{to}');
    expect(maskTemplate('Bearer sk_live_123')).toBe('****');
    expect(maskTemplate('+{to}')).toBe('****{to}');
    expect(maskTemplate('{sender}:{text} secret')).toBe('{sender}****{text}****');
    expect(maskTemplate('a{to}b{text}c')).toBe('****{to}****{text}****');
    expect(maskTemplate('{unknown}')).toBe('****');
    expect(maskTemplate('')).toBe('');
  });

  it('masks query and header values, whatever their keys are called', () => {
    const shown = maskSettings({
      ...base,
      query: { usr: 'acme', sifre: 'gizli', to: '{to}', msg: '{text}', originator: '{sender}' },
      headers: { 'X-Auth': 'k-123', authorization: 'Basic YWNtZTpwdw==', accept: 'application/json' },
    });
    expect(shown.query).toEqual({ usr: '****', sifre: '****', to: '{to}', msg: '{text}', originator: '{sender}' });
    expect(shown.headers).toEqual({ 'X-Auth': '****', authorization: '****', accept: '****' });
  });

  it("keeps the URL's scheme, host, port and path; masks its user, password, query values and fragment", () => {
    expect(maskSettings({ ...base, url: 'https://user:pw@api.example.com:8443/v1/send?apikey=abc&mode=x#t0k' }).url).toBe(
      'https://****@api.example.com:8443/v1/send?apikey=****&mode=****#****',
    );
    expect(maskSettings({ ...base, url: 'http://127.0.0.1:13013/cgi-bin/sendsms' }).url).toBe('http://127.0.0.1:13013/cgi-bin/sendsms');
  });

  it("masks a JSON body's values and keeps its keys and structure; numbers too, booleans and null stay", () => {
    const body = JSON.stringify({
      auth: { user: 'acme', pin: 4321 },
      to: ['{to}'],
      text: '{text}',
      from: '{sender}',
      flash: false,
      ref: null,
    });
    const shown = maskSettings({ ...base, body });
    expect(JSON.parse(shown.body!)).toEqual({
      auth: { user: '****', pin: '****' },
      to: ['{to}'],
      text: '{text}',
      from: '{sender}',
      flash: false,
      ref: null,
    });
  });

  it('masks each value of a form body, and a raw or not-yet-JSON body as text', () => {
    expect(maskSettings({ ...base, body_encoding: 'form', body: 'user=acme&pass=p%40ss&to={to}&text={text}' }).body).toBe(
      'user=****&pass=****&to={to}&text={text}',
    );
    expect(maskSettings({ ...base, body_encoding: 'raw', body: 'AUTH acme:pw TO {to} MSG {text}' }).body).toBe('****{to}****{text}');
    // A placeholder outside quotes: JSON only once filled in.
    expect(maskSettings({ ...base, body: '{"key":"abc","to":{to}}' }).body).toBe('****{to}****');
  });

  it('leaves the sender and every other setting as they are, and the input untouched', () => {
    const input = { ...base, query: { key: 'abc', to: '{to}' } };
    const shown = maskSettings(input);
    expect({ ...shown, query: undefined }).toEqual({ ...base, query: undefined });
    expect(input.query.key).toBe('abc');
  });
});
