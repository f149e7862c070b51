import { describe, expect, it } from 'vitest';
import { wrappedCall, wrapsTheAnswer } from './jsonp';

describe('JSONP: the wrapped data is the normal answer', () => {
  const names = new Map([['callback', 'pcljpab12']]);

  it('reads the data out of the call, with or without a guard', () => {
    expect(wrappedCall('/**/ typeof pcljpab12 === "function" && pcljpab12({"a":1});', names)?.data).toBe('{"a":1}');
    expect(wrappedCall('pcljpab12({"a":1})', names)?.data).toBe('{"a":1}');
    expect(wrappedCall('other({"a":1})', names)).toBeNull();
  });

  it('holds for statistics whose counters moved between the two reads (another check wrote meanwhile)', () => {
    const wrapped = '{"users":12,"notes":40,"orders":7,"revenue":1890.5,"generatedAt":"2026-12-06T14:00:01Z"}';
    const now = '{"users":14,"notes":43,"orders":8,"revenue":1911.25,"generatedAt":"2026-12-06T14:00:03Z"}';
    expect(wrapsTheAnswer(wrapped, now)).toBe(true);
  });

  it('does not hold for an error or another kind of object in the callback', () => {
    const normal = '{"users":12,"notes":40,"orders":7,"revenue":1890.5}';
    expect(wrapsTheAnswer('{"error":"unauthorized","code":401}', normal)).toBe(false);
    expect(wrapsTheAnswer('"hello"', normal)).toBe(false);
  });
});
