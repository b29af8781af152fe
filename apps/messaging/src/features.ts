import type { CampaignDeps } from './campaigns/ports.js';
import type { CsvWorkflowDeps } from './csv-workflow/ports.js';
import type { DispatchDeps } from './dispatch/ports.js';
import type { IntakeDeps } from './intake/ports.js';
import type { OptOutDeps } from './opt-outs/ports.js';
import type { ProviderDeps } from './providers/ports.js';
import type { ReportReadDeps } from './reports/report-reads.ports.js';
import type { SchedulingDeps } from './scheduling/ports.js';
import type { StatusDeps } from './status/ports.js';

/**
 * Each feature's deps, as wiring.ts builds them over one set of adapters: the gRPC handlers, the
 * consumers and the scheduler hand each use case its own feature's.
 */
export interface MessagingFeatures {
  campaigns: CampaignDeps;
  intake: IntakeDeps;
  csvWorkflow: CsvWorkflowDeps;
  dispatch: DispatchDeps;
  optOuts: OptOutDeps;
  scheduling: SchedulingDeps;
  providers: ProviderDeps;
  status: StatusDeps;
  /** The campaign report and the lists' counters (the counter documents' read side). */
  reportReads: ReportReadDeps;
}
