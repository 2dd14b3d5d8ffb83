import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeIssues, formatPath } from '../../../src/shared/validation';
import { channels } from '../../../src/shared/ipc/contract';

describe('describeIssues', () => {
  it('names the field path and the rule', () => {
    const schema = z.object({
      pagination: z.object({ limit: z.number().max(500, { message: 'must be at most 500' }) }),
    });
    const result = schema.safeParse({ pagination: { limit: 501 } });
    expect(describeIssues(result.error!)).toBe('pagination.limit must be at most 500');
  });

  it('rephrases zod defaults: missing, wrong type, unknown fields', () => {
    const schema = z.strictObject({ a: z.string(), b: z.number() });
    expect(describeIssues(schema.safeParse({ b: 'x', c: 1 }).error!, 'request')).toBe(
      'a is required; b must be a number; request must not contain unknown field "c"',
    );
  });

  it('names the first ten rules and counts the rest', () => {
    const schema = z.array(z.number());
    const text = describeIssues(schema.safeParse(Array.from({ length: 25 }, () => 'x')).error!, 'answer');
    expect(text.split('; ')).toHaveLength(11);
    expect(text).toMatch(/^\[0\] must be a number; .*\[9\] must be a number; and 15 more$/);
  });

  it('formats array indices', () => {
    expect(formatPath(['accounts', 0, 'protocol'])).toBe('accounts[0].protocol');
  });

  it('gives the IPC contract messages a user can act on', () => {
    const res = channels['wallet:import'].request.safeParse({ privateKey: '12' });
    expect(describeIssues(res.error!, 'request')).toBe(
      'privateKey must be 64 hex digits, with or without 0x',
    );
  });
});
