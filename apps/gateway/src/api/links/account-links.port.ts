import type {
  GetLinkRequest,
  GetLinkResponse,
  ListLinksRequest,
  ListLinksResponse,
  UpdateLinkRequest,
  UpdateLinkResponse,
} from '@feedback/proto/feedback/shortener/v1/shortener';

/** What an account's link routes need from the shortener service. */
export interface AccountLinksPort {
  listLinks(req: ListLinksRequest): Promise<ListLinksResponse>;
  getLink(req: GetLinkRequest): Promise<GetLinkResponse>;
  updateLink(req: UpdateLinkRequest): Promise<UpdateLinkResponse>;
}
