export type ChannelKind = 'link' | 'sms';

/** Where personal survey links come from: a node + a flow + how long a link stays open. */
export interface Channel {
  id: string;
  accountId: string;
  name: string;
  nodeId: string;
  /** Snapshots: the gateway owns nodes, the flow service flows (flows are immutable). */
  nodeName: string;
  flowId: string;
  flowName: string;
  linkTtlDays: number;
  kind: ChannelKind;
  createdAt: Date;
}

export interface NewChannel {
  name: string;
  nodeId: string;
  nodeName: string;
  flowId: string;
  /** 0: the service default. */
  linkTtlDays: number;
  kind: ChannelKind;
}

export const CHANNEL_LIMITS = { nameLength: 200, idLength: 200, maxTtlDays: 365 };
