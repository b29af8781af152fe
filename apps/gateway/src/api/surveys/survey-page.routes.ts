import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, ERROR_TABLE, errors } from '@feedback/kit-core';
import { LinkState, type GetSurveyPageResponse } from '@feedback/proto/feedback/survey/v1/survey';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toAppError } from '../../http/error-handler.js';
import { decodeUtf8, hasInvalidPercentUtf8 } from '../../http/strict-text.js';
import { isCrossSite } from './same-origin.js';
import { answersFromForm, parseForm, type FormValues } from './survey-form.js';
import { SURVEY_PAGE_CSP } from './survey-page.css.js';
import { acceptedLanguages, flowLanguages, pickLanguage } from './survey-page.i18n.js';
import { noticePage, surveyFormPage, type NoticeKind } from './survey-page.views.js';
import type { SmsOptOutsPort, SurveysPort } from './surveys.port.js';

const SURVEY_CODES = { alreadyAnswered: 13040, linkExpired: 13041 };

const Params = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
const Query = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 35, description: 'Preferred language, e.g. tr.' })) });
const FormBody = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: 'Fields o.<question_key> (option keys), n.<question_key> (a number), t.<question_key> (text).',
});
const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

type Req = Pick<FastifyRequest, 'headers' | 'query'>;

function sendPage(reply: FastifyReply, status: number, body: string) {
  return (
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', SURVEY_PAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      // The token in the URL is the capability: it must not leave in a Referer.
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .send(body)
  );
}

/** ?lang=, then the customer's language, then Accept-Language, then the flow's first language. */
function languageOf(req: Req, page?: GetSurveyPageResponse): string {
  const wanted = [(req.query as { lang?: string } | undefined)?.lang, page?.language, ...acceptedLanguages(req.headers['accept-language'])];
  return pickLanguage(page?.flow ? flowLanguages(page.flow) : ['en', 'tr'], wanted);
}

const notice = (reply: FastifyReply, req: Req, kind: NoticeKind, status: number, page?: GetSurveyPageResponse) =>
  sendPage(reply, status, noticePage(kind, languageOf(req, page)));

/** A link's state as the page answers it: the form, or a notice with its status. */
function statePage(reply: FastifyReply, req: Req, page: GetSurveyPageResponse, render: (lang: string) => [number, string]) {
  if (page.state === LinkState.LINK_STATE_ANSWERED) return notice(reply, req, 'answered', 200, page);
  if (page.state !== LinkState.LINK_STATE_ACTIVE) return notice(reply, req, 'expired', 410, page);
  const [status, body] = render(languageOf(req, page));
  return sendPage(reply, status, body);
}

/** The survey page customers open from their link (/s/{token} on the API listener): server-rendered HTML, no script. */
export const surveyPageRoutes =
  (deps: {
    surveys: Pick<SurveysPort, 'getSurveyPage' | 'submitAnswers'>;
    sms: SmsOptOutsPort;
    publicBaseUrl?: string;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const publicOrigin = deps.publicBaseUrl ? new URL(deps.publicBaseUrl).origin : undefined;
    // Scoped to this plugin: no other route takes form bodies.
    // Strict UTF-8, raw and %-encoded: URLSearchParams would store U+FFFD for what the page never sent.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => {
      const text = decodeUtf8(body as Buffer);
      if (text === undefined || hasInvalidPercentUtf8(text)) return done(errors.invalid({ body: 'is not valid UTF-8' }), undefined);
      done(null, parseForm(text));
    });
    // A person reads these answers: errors are pages, not JSON.
    app.setErrorHandler((err, req, reply) => {
      const e = toAppError(err as Error, req);
      const kind: NoticeKind = e.kind === 'not_found' ? 'notFound' : e.kind === 'gone' ? 'expired' : 'error';
      return notice(reply, req, kind, ERROR_TABLE[e.kind].http);
    });
    const common = { tags: ['survey page'], params: Params, querystring: Query, produces: ['text/html'] };
    const action = (lang: string) => `?lang=${encodeURIComponent(lang)}`;
    // Relative to /s/{token}: the token's last path segment.
    const optOutAction = (token: string, lang: string) => `${encodeURIComponent(token)}/sms_opt_out${action(lang)}`;
    const sameOrigin = async (req: FastifyRequest, reply: FastifyReply) => {
      if (isCrossSite(req.headers, publicOrigin)) return notice(reply, req, 'forbidden', 403);
    };

    app.get(
      '/s/:token',
      {
        schema: {
          ...common,
          summary: 'The survey page of a personal link',
          operationId: 'showSurveyPage',
          security: [],
          description: 'HTML. 200 the form (or "already answered"), 410 expired, 404 unknown link.',
          response: {
            200: htmlResponse('The survey, or "already answered"'),
            400: htmlResponse('A query parameter out of range'),
            404: htmlResponse('Unknown link'),
            410: htmlResponse('Expired link'),
          },
        },
      },
      async (req, reply) => {
        const page = await deps.surveys.getSurveyPage({ token: req.params.token });
        return statePage(reply, req, page, (lang) => [
          200,
          surveyFormPage({ page, lang, action: action(lang), optOutAction: optOutAction(req.params.token, lang) }),
        ]);
      },
    );

    app.post(
      '/s/:token',
      {
        onRequest: sameOrigin,
        schema: {
          ...common,
          summary: 'Send the answers of the survey page',
          operationId: 'submitSurveyPage',
          security: [],
          description:
            'An HTML form POST (application/x-www-form-urlencoded) from the page itself; cross-site POSTs are refused (403). 200 thanks (or "already answered"), 400 the form again with the errors beside the questions, 410 expired, 404 unknown link.',
          consumes: ['application/x-www-form-urlencoded'],
          body: FormBody,
          response: {
            200: htmlResponse('Thanks, or "already answered"'),
            400: htmlResponse('The form with the errors'),
            403: htmlResponse('A cross-site POST'),
            404: htmlResponse('Unknown link'),
            410: htmlResponse('Expired link'),
          },
        },
      },
      async (req, reply) => {
        const form: FormValues = req.body;
        try {
          await deps.surveys.submitAnswers({ token: req.params.token, answers: answersFromForm(form) });
          return notice(reply, req, 'thanks', 200);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          if (err.code === SURVEY_CODES.alreadyAnswered) return notice(reply, req, 'answered', 200);
          if (err.code === SURVEY_CODES.linkExpired) return notice(reply, req, 'expired', 410);
          if (err.kind !== 'invalid') throw err;
          const page = await deps.surveys.getSurveyPage({ token: req.params.token });
          return statePage(reply, req, page, (lang) => [
            400,
            surveyFormPage({
              page,
              lang,
              action: action(lang),
              optOutAction: optOutAction(req.params.token, lang),
              form,
              errors: err.fields,
            }),
          ]);
        }
      },
    );

    app.post(
      '/s/:token/sms_opt_out',
      {
        onRequest: sameOrigin,
        schema: {
          ...common,
          summary: "Stop the SMS of the survey link's account to the customer",
          operationId: 'optOutFromSurveyPage',
          security: [],
          description:
            "The survey page's \"Do not text me again\" button (links that came by SMS): puts the phone the link was texted to on the account's SMS opt-out list (source survey_page), whatever the survey's state. An HTML form POST from the page itself; cross-site POSTs are refused (403). 200 a confirmation, 404 unknown link or a link that did not come by SMS.",
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Optional(FormBody),
          response: {
            200: htmlResponse('The confirmation'),
            400: htmlResponse('A query parameter out of range'),
            403: htmlResponse('A cross-site POST'),
            404: htmlResponse('Unknown link, or not an SMS link'),
          },
        },
      },
      async (req, reply) => {
        const page = await deps.surveys.getSurveyPage({ token: req.params.token });
        if (!page.smsPhone) return notice(reply, req, 'notFound', 404, page);
        await deps.sms.addSmsOptOuts({ accountId: page.accountId, phoneNumbers: [page.smsPhone], source: 'survey_page' });
        return notice(reply, req, 'optedOut', 200, page);
      },
    );
  };
