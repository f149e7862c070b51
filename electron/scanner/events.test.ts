import { describe, expect, it } from 'vitest';
import { parseRemoteScanEvent } from './events';

const progress = { type: 'scan:progress', scanId: 's', apiId: 'a', userId: 'u', done: 1, total: 4, requestsSent: 9, findings: 0, current: null };

describe('scan events from another node (issue 27: the pace rides along)', () => {
  it('keeps a well-formed pace and drops a malformed one', () => {
    expect(parseRemoteScanEvent({ ...progress, pace: { limit: 2, max: 8, rps: 25, alone: false } })).toMatchObject({ pace: { limit: 2, max: 8, rps: 25, alone: false } });
    expect(parseRemoteScanEvent({ ...progress, pace: { limit: '2', max: 8, rps: 25, alone: false } })).toMatchObject({ pace: null });
    expect(parseRemoteScanEvent({ ...progress, pace: { limit: -1, max: 8, rps: 0, alone: false } })).toMatchObject({ pace: null });
    // An event without a pace (from a node of an older version) stays without one.
    expect(parseRemoteScanEvent(progress)).not.toHaveProperty('pace');
  });
});
