import { isoWithOffset } from '@feedback/kit-core';
import { DataErasureStatus, type DataErasure } from '@feedback/proto/feedback/survey/v1/data_erasure';

const date = (iso: string) => (iso ? isoWithOffset(new Date(iso)) : null);

export function dataErasureView(e: DataErasure | undefined) {
  const c = e?.counts;
  return {
    id: e?.id ?? '',
    status: e?.status === DataErasureStatus.DATA_ERASURE_STATUS_COMPLETED ? ('completed' as const) : ('pending' as const),
    requested_at: date(e?.requestedAt ?? '') ?? '',
    completed_at: date(e?.completedAt ?? ''),
    counts: {
      customers: c?.customers ?? 0,
      messages: c?.messages ?? 0,
      responses: c?.responses ?? 0,
      links: c?.links ?? 0,
      webhook_deliveries: c?.webhookDeliveries ?? 0,
      opt_outs_kept: c?.optOutsKept ?? 0,
    },
  };
}
