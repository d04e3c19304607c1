import { describe, expect, it } from 'vitest';
import { ClockcheckError } from '../../src/errors.ts';
import type { TargetRequest } from '../../src/client/client.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { createSetupResource, SetupFailed } from '../../src/properties/setup-resource.ts';
import { defaultProfile, profileSchema } from '../../src/profile/profile.ts';

const PROFILE = profileSchema.parse({ fixtures: { active_user_ids: [41] } });
const DATES = { year: 2030, day: 4 };

/** A target that answers every request with `status` and `json`. */
function answering(status: number, json: unknown): (request: TargetRequest) => Promise<Exchange> {
  return async (request) => ({
    id: 1,
    startedAt: new Date(0).toISOString(),
    sentAtMs: 0,
    durationMs: 1,
    request: { method: request.method, url: `https://t.test/api/public${request.path}`, headers: {}, body: JSON.stringify(request.json) },
    response: { status, headers: {}, body: JSON.stringify(json), bodyBytes: 2, bodyTruncated: false, json },
  });
}

describe('createSetupResource', () => {
  it('creates a closed timesheet for break cases and returns its ID and interval', async () => {
    const resource = await createSetupResource('timesheet', answering(201, { id: 77 }), PROFILE, DATES, 'a@b.test');
    expect(resource.id).toBe(77);
    expect(resource.timesheet).toMatchObject({ id: 77, start: expect.stringMatching(/^2030-03-04T08:00:00[+-]\d\d:\d\d$/), end: expect.stringMatching(/^2030-03-04T18:00:00/) });
  });

  it('fails with CLOCKCHECK_PRECONDITION when the target does not create it: the cases\' setup was not shown', async () => {
    const failure = createSetupResource('user', answering(500, { message: 'Server Error' }), defaultProfile(), DATES, 'a@b.test');
    await expect(failure).rejects.toBeInstanceOf(SetupFailed);
    await expect(failure).rejects.toBeInstanceOf(ClockcheckError);
    await expect(failure).rejects.toMatchObject({ code: 'CLOCKCHECK_PRECONDITION', message: 'could not create the user the generated cases need: status 500', exchange: { response: { status: 500 } } });
  });
});
