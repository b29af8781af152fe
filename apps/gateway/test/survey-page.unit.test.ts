import { AppError, errors } from '@feedback/kit-core';
import type { Flow } from '@feedback/proto/feedback/flow/v1/flow';
import type { AddSmsOptOutsRequest } from '@feedback/proto/feedback/messaging/v1/messaging';
import { LinkState, type GetSurveyPageResponse, type SubmitAnswersRequest } from '@feedback/proto/feedback/survey/v1/survey';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { surveysFeature } from '../src/api/surveys/surveys.feature.js';
import type { SurveysPort } from '../src/api/surveys/surveys.port.js';
import { testApi } from './listeners.js';

const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const q = (key: string, style: string, body: Record<string, string>, options: string[] = []) => ({
  id: `q-${key}`,
  key,
  style,
  body,
  options: options.map((o) => ({ id: `o-${o}`, key: o, body: { en: `Option ${o}`, tr: `Seçenek ${o}` } })),
});
const FLOW: Flow = {
  id: 'flow-1',
  accountId: 'acc-1',
  name: `Visit ${XSS}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  questions: [
    q('intro', 'statement', { en: XSS }),
    q('nps', 'nps', { en: 'Recommend us?', tr: 'Tavsiye eder misiniz?' }),
    q('pick', 'single_choice', { en: 'Pick one' }, ['a', 'b']),
    q('many', 'multiple_choice', { en: 'Pick many' }, ['x', 'y']),
    q('drop', 'dropdown', { en: 'Choose' }, ['d1', 'd2']),
    q('yes', 'yes_no', { en: 'Yes or no?' }),
    q('stars', 'star_rating', { en: 'Stars' }),
    q('mood', 'emoji_rating', { en: 'Mood' }),
    q('csat', 'csat', { en: 'Satisfied?' }),
    q('ces', 'ces', { en: 'Easy?' }),
    q('name', 'short_text', { en: 'Name' }),
    q('story', 'long_text', { en: 'Story' }),
    q('mail', 'email', { en: 'Mail' }),
    q('tel', 'phone', { en: 'Phone' }),
    q('count', 'number', { en: 'How many?' }),
    q('day', 'date', { en: 'When?' }),
  ],
};
const page = (state: LinkState, extra: Partial<GetSurveyPageResponse> = {}): GetSurveyPageResponse => ({
  state,
  flow: FLOW,
  customerName: `Ada ${XSS}`,
  language: '',
  builtInResponses: {},
  activatedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-08T00:00:00.000Z',
  channelId: 'ch-1',
  nodeName: 'Store',
  accountId: 'acc-1',
  smsPhone: '',
  ...extra,
});

// The survey page on the API listener with an in-memory survey service: markup, headers, statuses.
describe('survey page /s/{token}', () => {
  let app: FastifyInstance;
  let current: GetSurveyPageResponse | AppError;
  let submitted: SubmitAnswersRequest[];
  let submitResult: AppError | undefined;
  let optedOut: AddSmsOptOutsRequest[];
  const surveys = {
    getSurveyPage: async () => {
      if (current instanceof AppError) throw current;
      return current;
    },
    submitAnswers: async (req: SubmitAnswersRequest) => {
      submitted.push(req);
      if (submitResult) throw submitResult;
      return { responseId: 'r-1', answeredAt: '2026-01-02T00:00:00.000Z' };
    },
  } as unknown as SurveysPort;

  beforeAll(async () => {
    app = await testApi({
      features: [
        surveysFeature({
          surveys,
          shortener: { shorten: async () => ({}) },
          sms: {
            addSmsOptOuts: async (req) => (optedOut.push(req), { added: 1, already: 0 }),
            listSmsCampaigns: async () => ({ campaigns: [] }),
          },
          accounts: { insert: async () => {}, findById: async () => null },
          nodes: { findById: async () => null },
          displayTimeZone: 'UTC',
          publicBaseUrl: 'https://feedback.example.com',
        }),
      ],
    });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    current = page(LinkState.LINK_STATE_ACTIVE);
    submitted = [];
    submitResult = undefined;
    optedOut = [];
  });

  const get = (url = '/s/tok', headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const post = (body: string, headers: Record<string, string> = {}, url = '/s/tok?lang=en') =>
    app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });

  it('renders every question style as a plain form, with strict security headers', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('script-src');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.body;
    expect(body).not.toMatch(/<script/i);
    expect(body).toContain('<form method="post" action="?lang=en"');
    expect(body.match(/name="n\.nps"/g)).toHaveLength(11);
    expect(body.match(/name="o\.pick" value="[ab]"/g)).toHaveLength(2);
    expect(body.match(/type="checkbox" name="o\.many"/g)).toHaveLength(2);
    expect(body).toContain('<select name="o.drop"');
    expect(body.match(/name="n\.yes" value="[01]"/g)).toHaveLength(2);
    expect(body.match(/name="n\.stars"/g)).toHaveLength(5);
    expect(body.match(/name="n\.mood"/g)).toHaveLength(5);
    expect(body.match(/name="n\.csat"/g)).toHaveLength(5);
    expect(body.match(/name="n\.ces"/g)).toHaveLength(7);
    expect(body).toContain('<input type="text" name="t.name"');
    expect(body).toContain('<textarea name="t.story"');
    expect(body).toContain('<input type="email" name="t.mail"');
    expect(body).toContain('<input type="tel" name="t.tel"');
    expect(body).toContain('name="n.count"');
    expect(body).toContain('<input type="date" name="t.day"');
  });

  it('escapes every text an account or customer controls', async () => {
    const body = (await get()).body;
    expect(body).not.toContain('<img');
    expect(body).not.toContain('onerror="');
    expect(body).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=2&quot;&gt;');
    expect(body).toContain('Ada &lt;script&gt;');
    expect(body).toContain('<title>Visit &lt;script&gt;');
  });

  it("picks the language: ?lang=, then the customer's, then Accept-Language, then the flow's first", async () => {
    expect((await get('/s/tok?lang=tr')).body).toContain('Tavsiye eder misiniz?');
    expect((await get('/s/tok?lang=tr')).body).toContain('<html lang="tr">');
    expect((await get('/s/tok', { 'accept-language': 'de-DE,tr;q=0.8,en;q=0.5' })).body).toContain('Tavsiye eder misiniz?');
    expect((await get('/s/tok', { 'accept-language': 'en-GB,tr;q=0.8' })).body).toContain('Recommend us?');
    expect((await get('/s/tok', { 'accept-language': 'fr' })).body).toContain('Recommend us?');
    current = page(LinkState.LINK_STATE_ACTIVE, { language: 'tr' });
    expect((await get('/s/tok', { 'accept-language': 'en' })).body).toContain('Tavsiye eder misiniz?');
    expect((await get('/s/tok?lang=en')).body).toContain('Recommend us?');
    // A question without text in the chosen language falls back to the flow's first language.
    expect((await get('/s/tok?lang=tr')).body).toContain('Pick one');
  });

  it('answers already answered (200), expired (410) and unknown (404) links with a page of their own', async () => {
    current = page(LinkState.LINK_STATE_ANSWERED);
    const answered = await get();
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toContain('Already answered');
    expect(answered.body).not.toContain('<form');
    current = page(LinkState.LINK_STATE_EXPIRED);
    const expired = await get('/s/tok?lang=tr');
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('süresi doldu');
    current = errors.notFound('token', 'unknown survey link');
    const unknown = await get();
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(unknown.body).toContain('Survey not found');
    expect(unknown.headers['content-security-policy']).toContain("default-src 'none'");
    current = errors.unavailable();
    const down = await get();
    expect(down.statusCode).toBe(503);
    expect(down.body).toContain('Something went wrong');
  });

  it('takes fields named like Object.prototype members as plain fields (found by schemathesis: a 500)', async () => {
    const res = await post('__proto__=%23&__proto__=&constructor=x&hasOwnProperty=y&n.nps=7', { origin: 'https://feedback.example.com' });
    expect(res.statusCode).toBe(200);
    expect(submitted).toEqual([{ token: 'tok', answers: [{ questionKey: 'nps', optionKeys: [], number: 7 }] }]);
  });

  it('refuses a form whose bytes or %-escapes are not UTF-8 (400), instead of storing U+FFFD', async () => {
    const origin = { origin: 'https://feedback.example.com' };
    for (const body of ['t.name=Ada%FF', 't.name=%C3', 't.name=%ED%A0%80', Buffer.from([0x74, 0x2e, 0x6e, 0x3d, 0xff])]) {
      const res = await app.inject({
        method: 'POST',
        url: '/s/tok?lang=en',
        payload: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...origin },
      });
      expect(res.statusCode, String(body)).toBe(400);
      expect(res.headers['content-type']).toContain('text/html');
    }
    expect(submitted).toEqual([]);
    expect((await post('t.name=Kad%C4%B1k%C3%B6y&n.nps=9', origin)).statusCode).toBe(200);
    expect(submitted[0]?.answers).toContainEqual({ questionKey: 'name', optionKeys: [], text: 'Kadıköy' });
  });

  it('turns the form into answers by field kind and thanks the customer', async () => {
    const form = 'n.nps=9&o.pick=a&o.many=x&o.many=y&o.drop=d2&n.yes=1&t.name=Ada+%3Cb%3E&t.story=&n.count=2.5&n.stars=abc&other=1';
    const res = await post(form, { origin: 'https://feedback.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Thank you!');
    expect(submitted).toEqual([
      {
        token: 'tok',
        answers: [
          { questionKey: 'nps', optionKeys: [], number: 9 },
          { questionKey: 'pick', optionKeys: ['a'] },
          { questionKey: 'many', optionKeys: ['x', 'y'] },
          { questionKey: 'drop', optionKeys: ['d2'] },
          { questionKey: 'yes', optionKeys: [], number: 1 },
          { questionKey: 'name', optionKeys: [], text: 'Ada <b>' },
          { questionKey: 'count', optionKeys: [], number: 2.5 },
          { questionKey: 'stars', optionKeys: [], text: 'abc' },
        ],
      },
    ]);
  });

  it('shows the form again with each error beside its question and the given values kept (400)', async () => {
    submitResult = errors.invalid({ 'answers.nps': 'is required', 'answers.mail': 'is not an e-mail address' }, 'Invalid answers');
    const res = await post('o.pick=b&t.mail=%22%3E%3Cscript%3Ex%3C%2Fscript%3E');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Please check the marked answers.');
    expect(res.body).toMatch(/id="q-nps"[^>]*><legend>Recommend us\?.*?<\/legend><p class="error" role="alert">is required<\/p>/s);
    expect(res.body).toMatch(/id="q-mail"[^>]*><legend>Mail<\/legend><p class="error" role="alert">is not an e-mail address<\/p>/);
    expect(res.body).toContain('name="o.pick" value="b" required checked');
    expect(res.body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(res.body).not.toContain('<script>x');
  });

  it('answers a submit of an answered link with the answered page (200) and of an expired one with 410', async () => {
    submitResult = new AppError('gone', 'Survey already answered', {}, 13040);
    const again = await post('n.nps=1');
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Already answered');
    submitResult = new AppError('gone', 'Survey link expired', {}, 13041);
    const late = await post('n.nps=1');
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain('Link expired');
  });

  it('refuses cross-site POSTs (Sec-Fetch-Site, then Origin) and takes same-origin ones', async () => {
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const res = await post('n.nps=1', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.body).toContain('Not allowed');
    }
    expect(submitted).toHaveLength(0);
    const sameOrigin: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'https://proxy.internal' },
      { origin: 'http://localhost:8080' },
      { origin: 'https://feedback.example.com' },
      {},
    ];
    for (const headers of sameOrigin) {
      const res = await post('n.nps=1', { ...headers, host: 'localhost:8080' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
    expect(submitted).toHaveLength(4);
  });

  it('offers "do not text me again" on a link that came by SMS, and the button puts the phone on the account\'s list', async () => {
    expect((await get('/s/tok?lang=en')).body).not.toContain('sms_opt_out');
    current = page(LinkState.LINK_STATE_ACTIVE, { smsPhone: '905321234567' });
    const shown = await get('/s/tok?lang=tr');
    expect(shown.body).toContain('<form method="post" action="tok/sms_opt_out?lang=tr" class="opt-out">');
    expect(shown.body).toContain('Bana bir daha SMS gönderme');
    expect((await get('/s/tok?lang=en')).body).toContain('Do not text me again');

    const done = await post('', {}, '/s/tok/sms_opt_out?lang=en');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('No more text messages');
    expect(optedOut).toEqual([{ accountId: 'acc-1', phoneNumbers: ['905321234567'], source: 'survey_page' }]);

    // Cross-site: refused, nothing added; a link that did not come by SMS: 404.
    expect((await post('', { 'sec-fetch-site': 'cross-site' }, '/s/tok/sms_opt_out')).statusCode).toBe(403);
    current = page(LinkState.LINK_STATE_ACTIVE);
    expect((await post('', {}, '/s/tok/sms_opt_out')).statusCode).toBe(404);
    expect(optedOut).toHaveLength(1);
  });
});
