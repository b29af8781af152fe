import type {
  GetDataErasureRequest,
  GetDataErasureResponse,
  RequestDataErasureRequest,
  RequestDataErasureResponse,
} from '@feedback/proto/feedback/survey/v1/data_erasure';

/** What erasure requests need from the survey service, which owns them and checks the account. */
export interface PrivacyPort {
  requestDataErasure(req: RequestDataErasureRequest): Promise<RequestDataErasureResponse>;
  getDataErasure(req: GetDataErasureRequest): Promise<GetDataErasureResponse>;
}
