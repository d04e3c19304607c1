import type { CreatedKind } from '../records/created-id.ts';

/**
 * The operations a workload's flow may call (spec §4.1–§4.4), by the name a report and `--ensure`
 * give them: `POST /users`, `PUT /users/{user_id}`. The webhook unsubscribe (§4.5) is not among
 * them: it deletes the company's subscription, which no load test should do.
 */
export const WORKLOAD_OPERATIONS = {
  'GET /users': { method: 'GET', path: '/users', list: true },
  'POST /users': { method: 'POST', path: '/users', creates: 'user' },
  'PUT /users/{user_id}': { method: 'PUT', path: '/users/{user_id}', edits: 'user' },
  'GET /timesheets': { method: 'GET', path: '/timesheets', list: true },
  'POST /timesheets': { method: 'POST', path: '/timesheets', creates: 'timesheet' },
  'GET /breaks': { method: 'GET', path: '/breaks', list: true },
  'POST /breaks': { method: 'POST', path: '/breaks', creates: 'break' },
  'POST /schedules': { method: 'POST', path: '/schedules', creates: 'schedule' },
  'PUT /schedules/{schedule_id}': { method: 'PUT', path: '/schedules/{schedule_id}', edits: 'schedule' },
} as const satisfies Readonly<Record<string, WorkloadOperationModel>>;

export interface WorkloadOperationModel {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Under the API prefix, with its path parameter in braces. */
  readonly path: string;
  readonly list?: true;
  /** The record a POST creates. */
  readonly creates?: CreatedKind;
  /** The record a PUT edits (its ID in the path). */
  readonly edits?: 'user' | 'schedule';
}

export type WorkloadOperationName = keyof typeof WORKLOAD_OPERATIONS;

export const WORKLOAD_OPERATION_NAMES = Object.keys(WORKLOAD_OPERATIONS) as WorkloadOperationName[];

/** Whether the operation changes data (a write is permanent on this API: there is no delete for users, timesheets or breaks). */
export function isWrite(name: WorkloadOperationName): boolean {
  return WORKLOAD_OPERATIONS[name].method !== 'GET';
}

/**
 * The operation a flow step names: `POST /users`, `PUT /users/{{user}}` (the path parameter a
 * capture, or `{user_id}` as the spec writes it), `get /breaks`. Null when it is none of them.
 */
export function workloadOperationOf(text: string): { readonly name: WorkloadOperationName; readonly pathCapture: string | null } | null {
  const match = /^\s*([A-Za-z]+)\s+(\/[^\s?]*)\s*$/.exec(text);
  if (!match) return null;
  const method = match[1]!.toUpperCase();
  const path = match[2]!.replace(/\/+$/, '') || '/';
  for (const name of WORKLOAD_OPERATION_NAMES) {
    const model = WORKLOAD_OPERATIONS[name] as WorkloadOperationModel;
    if (model.method !== method) continue;
    if (model.path === path) return { name, pathCapture: null };
    const [base] = model.path.split('/{');
    const parameter = new RegExp(`^${base}/(?:\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\}\\}|\\{[a-z_]+\\})$`).exec(path);
    if (parameter && model.path.includes('{')) return { name, pathCapture: parameter[1] ?? null };
  }
  return null;
}
