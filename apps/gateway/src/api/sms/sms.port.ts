import type {
  CreateSmsCampaignRequest,
  CreateSmsCampaignResponse,
  CreateSmsSharingRequest,
  CreateSmsSharingResponse,
  GetSmsSharingRequest,
  GetSmsSharingResponse,
  ListSmsCampaignsRequest,
  ListSmsCampaignsResponse,
  ListSmsMessagesRequest,
  ListSmsMessagesResponse,
} from '@feedback/proto/feedback/messaging/v1/messaging';

/** What the SMS routes need from the messaging service. */
export interface SmsPort {
  createSmsCampaign(req: CreateSmsCampaignRequest): Promise<CreateSmsCampaignResponse>;
  listSmsCampaigns(req: ListSmsCampaignsRequest): Promise<ListSmsCampaignsResponse>;
  createSmsSharing(req: CreateSmsSharingRequest, opts?: { deadlineMs?: number }): Promise<CreateSmsSharingResponse>;
  getSmsSharing(req: GetSmsSharingRequest): Promise<GetSmsSharingResponse>;
  listSmsMessages(req: ListSmsMessagesRequest): Promise<ListSmsMessagesResponse>;
}
