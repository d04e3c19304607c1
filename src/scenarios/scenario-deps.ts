import type { PacedSend } from '../client/pacer.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { CreatedResource, RecordCompany } from '../report/model.ts';
import type { BuiltinCheck } from '../checks/context.ts';
import type { RunSink } from '../webhooks/run-sink.ts';
import type { TemplateContext } from './template-context.ts';
import type { CheckStep } from './format.ts';
import type { SharedBaselines } from './shared-baselines.ts';
import type { SharedSetups } from './shared-setups.ts';

/** What running a scenario needs from the run. */
export interface ScenarioDeps {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  /** Waits for the pacer without sending (for raw-socket probes); `done()` once answered. */
  readonly acquire: () => Promise<PacedSend>;
  readonly profile: Profile;
  readonly origin: string;
  /** The template context without the scenario's own vars. */
  readonly template: Omit<TemplateContext, 'vars'>;
  readonly builtins: Readonly<Record<string, BuiltinCheck>>;
  readonly readOnly: boolean;
  readonly replay: (checkId: string) => string;
  /** Receives every resource a scenario creates. */
  readonly onCreated: (resource: CreatedResource, company: RecordCompany) => void;
  /** Receives every removal a scenario makes (a DELETE the target answered 2xx: the webhook subscription). */
  readonly onRemoved?: (kind: CreatedResource['kind'], checkId: string, company: RecordCompany) => void;
  /** The run's webhook sink (profile `webhook.sink`), or null. */
  readonly sink: RunSink | null;
  /** When the run's time limit passes (epoch ms): no check waits beyond it. Default: never. */
  readonly deadlineMs?: number;
  /** Check steps the run adapted to the target's data (a smaller page_size): their arguments and why. */
  readonly adaptations?: ReadonlyMap<CheckStep, StepAdaptation>;
  /** The run's accepted pair baselines, shared by pairs that send the same one; absent: each pair sends its own. */
  readonly baselines?: SharedBaselines;
  /** The run's read-only setups, shared by scenarios that make the same one and only read it; absent: each runs its own. */
  readonly setups?: SharedSetups;
}

/** Arguments a check step runs with instead of its suite's, and the note that says why. */
export interface StepAdaptation {
  readonly args: Readonly<Record<string, unknown>>;
  readonly note: string;
}
