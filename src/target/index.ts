/** The target layer: the HTTP client, its pacing, redaction and progress display. */
export type {
  Exchange,
  HttpMethod,
  RecordedRequest,
  RecordedResponse,
  TransportError,
  TransportErrorCode,
} from './exchange.ts';
export {
  TargetClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_ABORT_RESPONSE_BYTES,
  type TargetClientOptions,
  type TargetRequest,
  type RequestAuth,
} from './client.ts';
export { Pacer, SYSTEM_CLOCK, type PacerClock, type PacerOptions } from './pacer.ts';
export { Progress, formatEta, type ProgressOptions, type ProgressStream } from './progress.ts';
export { Redactor, REDACTED } from './redaction.ts';
