import type {
  CreateEndpointRequest,
  CreateEndpointResponse,
  DeleteEndpointRequest,
  DeleteEndpointResponse,
  GetEndpointRequest,
  GetEndpointResponse,
  ListDeliveriesRequest,
  ListDeliveriesResponse,
  ListEndpointsRequest,
  ListEndpointsResponse,
  ReplayDeliveryRequest,
  ReplayDeliveryResponse,
  RotateSecretRequest,
  RotateSecretResponse,
  SendTestEventRequest,
  SendTestEventResponse,
  UpdateEndpointRequest,
  UpdateEndpointResponse,
} from '@feedback/proto/feedback/webhooks/v1/webhooks';

/** What the webhook routes need from the webhooks service. */
export interface WebhooksPort {
  createEndpoint(req: CreateEndpointRequest): Promise<CreateEndpointResponse>;
  getEndpoint(req: GetEndpointRequest): Promise<GetEndpointResponse>;
  listEndpoints(req: ListEndpointsRequest): Promise<ListEndpointsResponse>;
  updateEndpoint(req: UpdateEndpointRequest): Promise<UpdateEndpointResponse>;
  deleteEndpoint(req: DeleteEndpointRequest): Promise<DeleteEndpointResponse>;
  rotateSecret(req: RotateSecretRequest): Promise<RotateSecretResponse>;
  sendTestEvent(req: SendTestEventRequest): Promise<SendTestEventResponse>;
  listDeliveries(req: ListDeliveriesRequest): Promise<ListDeliveriesResponse>;
  replayDelivery(req: ReplayDeliveryRequest): Promise<ReplayDeliveryResponse>;
}
