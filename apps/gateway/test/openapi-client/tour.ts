/**
 * What client.ts's calls answer, written by hand from docs/api.md, not generated: client.ts
 * returns the generated types' values as these, so a document whose types differ from the
 * documented answers does not compile. Also what the e2e test reads (it cannot import client.ts
 * before the types are generated).
 */

export interface Stack {
  baseUrl: string;
  shortenerUrl: string;
  adminToken: string;
}

type Flow = { id: string; name: string; questions: Array<{ id: string; key: string; body: Record<string, string>; style: string }> };
type Directory = { id: string; object: 'file_service::directory'; name: string; created_at: string };
type SharingCounts = { id: string; campaign_id: string; accepted: number; rejected: number; duplicate: number };

export interface Tour {
  health: { status: string };
  account: { id: string; name: string; created_at: string };
  node: { id: string; name: string; created_at: string };
  flow: Flow;
  campaign: { id: string; node_id: string; flow_id: string; message_template: string };
  flowAsIntegrator: Flow;
  personalLink: { customer_id: string; link: string; short_link: string | null; activated_at: string; expires_at: string };
  activeSurveys: { count: number; surveys: Array<{ Link: string; SurveyName: string; LastActivationDate: string; UnitName: string }> };
  surveyPage: { status: number; contentType: string | null; html: string };
  directory: Directory;
  directories: Directory[];
  sharingCreated: SharingCounts & { rejected_phones: Array<{ phone: string; reason: string }> };
  sharing: SharingCounts & {
    recipients: Array<{
      phone: string;
      status: string;
      error: { status: string | null; code: string | null; description: string | null } | null;
      updated_at: string | null;
    }>;
  };
  shortened: { id: string; fullUrl: string; shortUrl: string; createdAt: string };
  redirect: { status: number; location: string | null };
}
