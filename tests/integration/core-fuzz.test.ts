// Every channel fed random input through core.invoke, against a real service: input the
// contract refuses answers VALIDATION_FAILED; input it happens to accept gets a normal answer
// (a success or a failure in words, never INTERNAL); nothing throws, and the core still works.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import { appErrorCodes, channelNames, channels, type Channel } from '../../src/shared';
import { requireKeychainSession } from '../support/keychain';
import { FixtureService, startRemoteCore } from '../support/fixture-service';

let remote: FixtureService;
let t: Awaited<ReturnType<typeof startRemoteCore>>;

beforeAll(async () => {
  requireKeychainSession();
  remote = await new FixtureService().start();
  t = await startRemoteCore(remote);
  // Logged in, so that random input the contract accepts reaches the service's JWT endpoints.
  await t.core.invoke('wallet:import', { privateKey: DEMO_PRIVATE_KEY });
  await t.core.invoke('auth:login', {});
});
afterAll(async () => {
  await t?.close();
  await remote?.close();
});

/** Values of any type but rarely the right one. */
const wrongValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 4 }),
  fc.object({ maxDepth: 2 }),
);

/** Objects with the request's own keys (any subset) holding random values. */
function rightKeys(channel: Channel): fc.Arbitrary<unknown> {
  const keys = Object.keys((channels[channel].request as z.ZodObject).shape);
  if (keys.length === 0) return fc.dictionary(fc.string(), wrongValue, { maxKeys: 3 });
  return fc.record(Object.fromEntries(keys.map((key) => [key, wrongValue])), { requiredKeys: [] });
}

/** The answer to `input` is a Result, and the right kind of one. */
async function answersProperly(channel: Channel, input: unknown): Promise<void> {
  const answer = await t.core.invoke(channel, input);
  expect(typeof answer.ok).toBe('boolean');
  const valid = channels[channel].request.safeParse(input ?? {}).success;
  if (answer.ok) {
    expect(valid, `${channel} accepted ${JSON.stringify(input)}`).toBe(true);
    return;
  }
  expect(appErrorCodes).toContain(answer.error.code);
  expect(typeof answer.error.message).toBe('string');
  if (!valid) expect(answer.error.code, `${channel} ${JSON.stringify(input)}`).toBe('VALIDATION_FAILED');
  else expect(answer.error.code, `${channel} ${answer.error.message}`).not.toBe('INTERNAL');
}

describe('every channel under random input', () => {
  it.each(channelNames.map((c) => [c]))('%s', async (channel) => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), (input) => answersProperly(channel, input)),
      { numRuns: 100 },
    );
    await fc.assert(
      fc.asyncProperty(rightKeys(channel), (input) => answersProperly(channel, input)),
      { numRuns: 100 },
    );
  });

  it('still works afterwards', async () => {
    expect(await t.core.invoke('app:info', {})).toMatchObject({ ok: true });
    // Random input may have logged out (auth:logout takes no fields); the anonymous read answers.
    expect(await t.core.invoke('tokens:list', {})).toMatchObject({ ok: true });
  });
});
