import type {
  AddSmsOptOutsRequest,
  AddSmsOptOutsResponse,
  BindDirectoryRequest,
  BindDirectoryResponse,
  CancelSmsSharingRequest,
  CancelSmsSharingResponse,
  UpdateSmsCampaignRequest,
  UpdateSmsCampaignResponse,
  CreateSmsCampaignRequest,
  CreateSmsCampaignResponse,
  CreateSmsSharingRequest,
  CreateSmsSharingResponse,
  DeleteSmsProviderRequest,
  GetCampaignReportRequest,
  GetCampaignReportResponse,
  DeleteSmsOptOutRequest,
  DeleteSmsOptOutResponse,
  DeleteSmsProviderResponse,
  GetSmsProviderRequest,
  GetSmsProviderResponse,
  GetSmsSharingRequest,
  GetSmsSharingResponse,
  ListDirectoryBindingsRequest,
  ListDirectoryBindingsResponse,
  ListSmsCampaignsRequest,
  ListSmsCampaignsResponse,
  ListSmsMessagesRequest,
  ListSmsMessagesResponse,
  ListSmsOptOutsRequest,
  ListSmsOptOutsResponse,
  ListSmsSharingsRequest,
  ListSmsSharingsResponse,
  ListSharingRecipientsRequest,
  ListSharingRecipientsResponse,
  PreviewSmsMessageRequest,
  PreviewSmsMessageResponse,
  PutSmsProviderRequest,
  PutSmsProviderResponse,
  UnbindDirectoryRequest,
  UnbindDirectoryResponse,
} from '@feedback/proto/feedback/messaging/v1/messaging';

/** What the SMS routes need from the messaging service. */
export interface SmsPort {
  createSmsCampaign(req: CreateSmsCampaignRequest): Promise<CreateSmsCampaignResponse>;
  listSmsCampaigns(req: ListSmsCampaignsRequest): Promise<ListSmsCampaignsResponse>;
  createSmsSharing(req: CreateSmsSharingRequest, opts?: { deadlineMs?: number }): Promise<CreateSmsSharingResponse>;
  getSmsSharing(req: GetSmsSharingRequest): Promise<GetSmsSharingResponse>;
  listSmsSharings(req: ListSmsSharingsRequest): Promise<ListSmsSharingsResponse>;
  listSmsMessages(req: ListSmsMessagesRequest): Promise<ListSmsMessagesResponse>;
  bindDirectory(req: BindDirectoryRequest): Promise<BindDirectoryResponse>;
  listDirectoryBindings(req: ListDirectoryBindingsRequest): Promise<ListDirectoryBindingsResponse>;
  unbindDirectory(req: UnbindDirectoryRequest): Promise<UnbindDirectoryResponse>;
  putSmsProvider(req: PutSmsProviderRequest): Promise<PutSmsProviderResponse>;
  getSmsProvider(req: GetSmsProviderRequest): Promise<GetSmsProviderResponse>;
  deleteSmsProvider(req: DeleteSmsProviderRequest): Promise<DeleteSmsProviderResponse>;
  addSmsOptOuts(req: AddSmsOptOutsRequest): Promise<AddSmsOptOutsResponse>;
  listSmsOptOuts(req: ListSmsOptOutsRequest): Promise<ListSmsOptOutsResponse>;
  deleteSmsOptOut(req: DeleteSmsOptOutRequest): Promise<DeleteSmsOptOutResponse>;
  updateSmsCampaign(req: UpdateSmsCampaignRequest): Promise<UpdateSmsCampaignResponse>;
  /** Writes a record per unsent recipient: a large sharing needs a longer deadline than a read (SMS_CANCEL_DEADLINE_MS). */
  cancelSmsSharing(req: CancelSmsSharingRequest, opts?: { deadlineMs?: number }): Promise<CancelSmsSharingResponse>;
  previewSmsMessage(req: PreviewSmsMessageRequest): Promise<PreviewSmsMessageResponse>;
  getCampaignReport(req: GetCampaignReportRequest): Promise<GetCampaignReportResponse>;
  listSharingRecipients(req: ListSharingRecipientsRequest): Promise<ListSharingRecipientsResponse>;
}
