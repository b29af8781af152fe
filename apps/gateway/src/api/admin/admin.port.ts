import type {
  AddDomainRequest,
  AddDomainResponse,
  GetLinkStatsRequest,
  GetLinkStatsResponse,
  ListDomainsRequest,
  ListDomainsResponse,
  RemoveDomainRequest,
  RemoveDomainResponse,
} from '@feedback/proto/feedback/shortener/v1/shortener';

/** What the admin routes of short links need from the shortener service. */
export interface AdminLinksPort {
  getLinkStats(req: GetLinkStatsRequest): Promise<GetLinkStatsResponse>;
  addDomain(req: AddDomainRequest): Promise<AddDomainResponse>;
  listDomains(req: ListDomainsRequest): Promise<ListDomainsResponse>;
  removeDomain(req: RemoveDomainRequest): Promise<RemoveDomainResponse>;
}
