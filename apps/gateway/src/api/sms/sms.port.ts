import type {
  BindDirectoryRequest,
  BindDirectoryResponse,
  CreateSmsCampaignRequest,
  CreateSmsCampaignResponse,
  CreateSmsSharingRequest,
  CreateSmsSharingResponse,
  GetSmsSharingRequest,
  GetSmsSharingResponse,
  ListDirectoryBindingsRequest,
  ListDirectoryBindingsResponse,
  ListSmsCampaignsRequest,
  ListSmsCampaignsResponse,
  ListSmsMessagesRequest,
  ListSmsMessagesResponse,
  UnbindDirectoryRequest,
  UnbindDirectoryResponse,
} from '@feedback/proto/feedback/messaging/v1/messaging';

/** What the SMS routes need from the messaging service. */
export interface SmsPort {
  createSmsCampaign(req: CreateSmsCampaignRequest): Promise<CreateSmsCampaignResponse>;
  listSmsCampaigns(req: ListSmsCampaignsRequest): Promise<ListSmsCampaignsResponse>;
  createSmsSharing(req: CreateSmsSharingRequest, opts?: { deadlineMs?: number }): Promise<CreateSmsSharingResponse>;
  getSmsSharing(req: GetSmsSharingRequest): Promise<GetSmsSharingResponse>;
  listSmsMessages(req: ListSmsMessagesRequest): Promise<ListSmsMessagesResponse>;
  bindDirectory(req: BindDirectoryRequest): Promise<BindDirectoryResponse>;
  listDirectoryBindings(req: ListDirectoryBindingsRequest): Promise<ListDirectoryBindingsResponse>;
  unbindDirectory(req: UnbindDirectoryRequest): Promise<UnbindDirectoryResponse>;
}
