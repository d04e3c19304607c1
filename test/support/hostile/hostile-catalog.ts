import { Agent, request } from 'undici';
import type { ReferenceServer } from '../../../src/reference/server.ts';
import { fuzzInvalidRequests } from './fuzz-invalid.ts';
import { garbageBodyRequests } from './garbage-bodies.ts';
import { hostileTargetRequests } from './hostile-targets.ts';
import { PREFIX, type HostileRequest } from './hostile-request.ts';

/**
 * The reference seed has users but no schedule, and the catalog updates schedule 1: creates it, as
 * the property runner's setup does (all-day, one-off, so the fuzz update cases break what they say).
 * Throws unless it gets ID 1.
 */
export async function createScheduleToUpdate(server: ReferenceServer): Promise<void> {
  const agent = new Agent({ connect: { ca: server.tls.caPem } });
  try {
    const userId = server.seed.activeUserIds.admin;
    const response = await request(`${server.origin}${PREFIX}/schedules`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: server.token, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ assigned_by: userId, title: 'hostile base', repeat: false, all_day: true, color: 'blue', user_ids: [userId], start_date: '03/02/2026', end_date: '03/02/2026' }),
    });
    const text = await response.body.text();
    const id: unknown = JSON.parse(text)?.items?.id;
    if (id !== 1) throw new Error(`creating the schedule to update gave ${response.statusCode} ${text.slice(0, 200)}, not schedule 1`);
  } finally {
    await agent.close();
  }
}

/**
 * Exactly `total` hostile requests for a reference server: every garbage body and hostile target,
 * and the fuzz generators' invalid cases (seeded) for the rest, spread over every operation.
 * Throws when the fixed parts alone exceed `total`.
 */
export function hostileCatalog(server: ReferenceServer, total: number, seed: number): HostileRequest[] {
  const fixed = [...garbageBodyRequests(server), ...hostileTargetRequests(server.token)];
  if (fixed.length > total) throw new Error(`${fixed.length} garbage and target requests already exceed the ${total} asked for`);
  return [...fuzzInvalidRequests(total - fixed.length, seed), ...fixed];
}
