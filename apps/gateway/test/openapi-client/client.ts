import createClient from 'openapi-fetch';
import type { paths } from './generated/api.js';
import type { paths as LinkPaths } from './generated/links.js';
import type { Stack, Tour } from './tour.js';

/**
 * A client as an integrator would generate it: openapi-typescript's types of the two served
 * documents (written to generated/ by test/e2e/openapi-client.e2e.test.ts) and openapi-fetch.
 * Compiled with tsc before it runs, so a document whose types do not fit the calls below (a
 * missing operation, a renamed field, a wrong body or answer type) fails the test; run against
 * the stack, so does an answer the call did not expect. One call or more of every tag; what
 * they answer is returned as tour.ts's hand-written types.
 */

/** The answer's body, or an error naming the call, its status and its error body. */
function ok<T>(call: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${call} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function tour(stack: Stack, label: string): Promise<Tour> {
  const anyone = createClient<paths>({ baseUrl: stack.baseUrl });
  const admin = createClient<paths>({ baseUrl: stack.baseUrl, headers: { authorization: `Bearer ${stack.adminToken}` } });

  // health
  const health = ok('getHealth', await anyone.GET('/health'));

  // admin: an account with both token kinds, a node, a flow, a link channel, an SMS campaign
  const account = ok('createAccount', await admin.POST('/admin/v1/accounts', { body: { name: `openapi client ${label}` } }));
  const accountPath = { params: { path: { account_id: account.id } } };
  const issue = async (kind: 'api' | 'integration') =>
    ok('issueToken', await admin.POST('/admin/v1/accounts/{account_id}/tokens', { ...accountPath, body: { kind, name: kind } })).token;
  const apiToken = await issue('api');
  const integrationToken = await issue('integration');
  const node = ok(
    'createNode',
    await admin.POST('/admin/v1/accounts/{account_id}/nodes', { ...accountPath, body: { name: `store ${label}` } }),
  );
  const flow = ok(
    'createFlow',
    await admin.POST('/admin/v1/accounts/{account_id}/flows', {
      ...accountPath,
      body: { name: `visit ${label}`, questions: [{ key: 'nps', body: { en: 'How likely are you to recommend us?' }, style: 'nps' }] },
    }),
  );
  const channel = ok(
    'createChannel',
    await admin.POST('/admin/v1/accounts/{account_id}/channels', {
      ...accountPath,
      body: { name: `web ${label}`, node_id: node.id, flow_id: flow.id, link_ttl_days: 7 },
    }),
  );
  const campaign = ok(
    'createSmsCampaign',
    await admin.POST('/admin/v1/accounts/{account_id}/sms_campaigns', {
      ...accountPath,
      body: { name: `sms ${label}`, node_id: node.id, flow_id: flow.id, message_template: 'How was your visit? {{link}}' },
    }),
  );

  // flows and surveys, with the integration token
  const withIntegrationToken = createClient<paths>({ baseUrl: stack.baseUrl, headers: { authorization: `Bearer ${integrationToken}` } });
  const flowAsIntegrator = ok(
    'getFlow',
    await withIntegrationToken.GET('/external/v1/flows/{flow_id}', { params: { path: { flow_id: flow.id } } }),
  );
  const customer = { external_id: `C-${label}`, phone_number: '+905321112233' };
  const personalLink = ok(
    'createPersonalLink',
    await withIntegrationToken.POST('/external/v1/link_channels/{channel_id}/links', {
      params: { path: { channel_id: channel.id } },
      body: { customer },
    }),
  );
  const activeSurveys = ok(
    'listActiveSurveys',
    await withIntegrationToken.POST('/external/v1/nodes/{node_id}/active_surveys', {
      params: { path: { node_id: node.id } },
      body: { customer: { external_id: customer.external_id } },
    }),
  );

  // survey page: the personal link's token is the capability
  const token = new URL(personalLink.link).pathname.split('/').pop()!;
  const page = await anyone.GET('/s/{token}', { params: { path: { token } }, parseAs: 'text' });
  const surveyPage = { status: page.response.status, contentType: page.response.headers.get('content-type'), html: page.data ?? '' };

  // files and SMS, with the API token
  const withApiToken = createClient<paths>({ baseUrl: stack.baseUrl, headers: { authorization: `Token token="${apiToken}"` } });
  const directory = ok(
    'createDirectory',
    await withApiToken.POST('/v2/file_service/{account_id}/directories', { ...accountPath, body: { name: `inbox-${label}` } }),
  ).data;
  const directories = ok('listDirectories', await withApiToken.GET('/v2/file_service/{account_id}/directories', accountPath)).data;
  const sharingCreated = ok(
    'createSmsSharing',
    await withApiToken.POST('/v1/sms_campaigns/{campaign_id}/sms_sharings', {
      params: { path: { campaign_id: campaign.id } },
      body: { phone_numbers: ['+905321112233', '12'] },
    }),
  );
  const sharing = ok(
    'getSmsSharing',
    await withApiToken.GET('/v1/sms_sharings/{sharing_id}', { params: { path: { sharing_id: sharingCreated.id } } }),
  );

  // links, on the link listener: no token without a customer domain
  const links = createClient<LinkPaths>({ baseUrl: stack.shortenerUrl });
  const shortened = ok('shortenUrl', await links.POST('/shorten', { body: { url: `https://example.com/openapi-client/${label}` } }));
  const followed = await links.GET('/{code}', { params: { path: { code: shortened.id } }, redirect: 'manual' });
  const redirect = { status: followed.response.status, location: followed.response.headers.get('location') };

  return {
    health,
    account,
    node,
    flow,
    campaign,
    flowAsIntegrator,
    personalLink,
    activeSurveys,
    surveyPage,
    directory,
    directories,
    sharingCreated,
    sharing,
    shortened,
    redirect,
  };
}
