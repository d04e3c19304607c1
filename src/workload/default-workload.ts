import { parseWorkload, type Workload } from './workload-file.ts';

/** What `--workload default` is called in reports and errors. */
export const DEFAULT_WORKLOAD_SOURCE = 'the default workload (clockcheck load --workload default)';

/**
 * The built-in workload: an admin integration's day. Mostly reads (the break list, the user list
 * page by page, a year of timesheets), and a realistic share of writes: people onboarded and one of
 * them edited, a clock-in with its break read back by ID, a shift planned. About two requests in
 * three read; every write is a valid case from the generators `run` uses, so each flow is valid on
 * any conforming server. It is also the example of the format (docs/rate-limit-and-load.md).
 */
export const DEFAULT_WORKLOAD_YAML = `# clockcheck workload: an admin integration's day
name: admin-day
description: Mostly lists (breaks, users, timesheets); some onboarding, clock-ins with a break, an edit, a shift.
arrival:
  model: open            # flows start on a schedule, whatever the target's speed
  phases:
    - duration: 30s
      rate: 10           # flows started per second
  max_in_flight: 50      # more in flight than this: the arrival is dropped, and counted
scenarios:
  - name: list breaks
    weight: 35
    flow:
      - op: GET /breaks
        query: { page_size: 100 }
  - name: browse users
    weight: 20
    flow:
      - op: GET /users
      - think: 200ms
      - op: GET /users
        query: { page: 2, page_size: 10 }
  - name: timesheets of a year
    weight: 15
    flow:
      - op: GET /timesheets
        query: { date_range: "2024-01-01,2024-12-31", page_size: 50 }
  - name: clock in with a break
    weight: 15
    flow:
      - op: POST /users
        as: employee
      - op: POST /timesheets
        with: { user_id: "{{employee}}" }
        as: timesheet
      - op: POST /breaks
        with: { timesheet_id: "{{timesheet}}" }
        as: lunch
      - op: GET /breaks
        ids: ["{{lunch}}"]
  - name: onboard and correct
    weight: 10
    flow:
      - op: POST /users
        as: hire
      - think: 100ms
      - op: PUT /users/{{hire}}
  - name: plan a shift
    weight: 5
    flow:
      - op: POST /schedules
`;

/** The default workload, parsed by the same parser as a user's file. */
export function defaultWorkload(): Workload {
  return { ...parseWorkload(DEFAULT_WORKLOAD_YAML, 'default-workload.yaml'), source: DEFAULT_WORKLOAD_SOURCE };
}
