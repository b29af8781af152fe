import type { Clock } from '@feedback/kit-core';
import type { CampaignRepository } from '../campaigns/ports.js';
import type { DispatchPublisher, StatusEvents } from '../shared/ports.js';
import type { OptOutRepository } from '../opt-outs/ports.js';
import type { JobRepository } from '../scheduling/ports.js';
import type { MessageRepository, MessagingSettings, SharingRepository } from '../shared/ports.js';

/** What accepting, previewing and cancelling a sharing are given (wiring.ts builds it). */
export interface IntakeDeps {
  campaigns: CampaignRepository;
  sharings: SharingRepository;
  /** Cancelling settles the recipients not yet claimed. */
  messages: MessageRepository;
  dispatch: DispatchPublisher;
  statusEvents: StatusEvents;
  /** A sharing that waits (send_at, the send window, reminders) is a scheduled step. */
  jobs: JobRepository;
  /** The accounts' suppression lists: a listed phone is rejected. */
  optOuts: OptOutRepository;
  clock: Clock;
  newId: () => string;
  settings: MessagingSettings;
}
