import { DataErasureStatus, type DataErasure as DataErasureMessage } from '@feedback/proto/feedback/survey/v1/data_erasure';
import { erasureCounts, type DataErasure } from '../domain/data-erasure.js';
import { countsMessage } from '../adapters/kafka/data-erasure.publisher.js';

export const erasureMessage = (e: DataErasure): DataErasureMessage => ({
  id: e.id,
  accountId: e.accountId,
  status: e.status === 'completed' ? DataErasureStatus.DATA_ERASURE_STATUS_COMPLETED : DataErasureStatus.DATA_ERASURE_STATUS_PENDING,
  requestedAt: e.requestedAt.toISOString(),
  completedAt: e.completedAt ? e.completedAt.toISOString() : '',
  counts: countsMessage(erasureCounts(e)),
  expectedServices: e.expectedServices,
  reportedServices: Object.keys(e.progress),
});
