import { describe, expect, it } from 'vitest';
import { readersOf } from '../../../infra/local/queue-pollers.ts';
import { REPORTS_QUEUE } from '../../../shared/system/areas/reports.ts';

describe('local queue readers', () => {
  it('reads the report queue with several readers, and others with one, unless told otherwise', () => {
    expect(readersOf(REPORTS_QUEUE, {})).toBe(8);
    expect(readersOf({ ...REPORTS_QUEUE, localReaders: undefined }, {})).toBe(1);
    expect(readersOf(REPORTS_QUEUE, { LOCAL_QUEUE_READERS_REPORTS: '2' })).toBe(2);
    expect(readersOf(REPORTS_QUEUE, { LOCAL_QUEUE_READERS_REPORTS: 'many' })).toBe(1);
    expect(readersOf(REPORTS_QUEUE, { LOCAL_QUEUE_READERS_REPORTS: '0' })).toBe(1);
  });
});
