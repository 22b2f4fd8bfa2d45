import { describe, expect, it } from 'vitest';
import { floorAreaHistorySchema } from '../../../shared/schemas/floor-area-history.ts';

const messages = (value: unknown): Record<string, string> => {
  const result = floorAreaHistorySchema.safeParse(value);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('floor-area history', () => {
  it('takes periods that follow one another, the last left open', () => {
    expect(
      messages([
        { from: '2022-01-01', floorAreaM2: 1500 },
        { from: '2019-04-01', to: '2021-12-31', floorAreaM2: 1200 },
      ]),
    ).toEqual({});
  });

  it('refuses a period that starts before the previous one ends, naming the later entry', () => {
    expect(
      messages([
        { from: '2019-04-01', to: '2022-06-30', floorAreaM2: 1200 },
        { from: '2022-06-30', floorAreaM2: 1500 },
      ]),
    ).toEqual({ '1.from': 'Overlaps the period from 2019-04-01' });
    expect(
      messages([
        { from: '2020-01-01', floorAreaM2: 900 },
        { from: '2020-01-01', floorAreaM2: 1000 },
      ]),
    ).toEqual({ '1.from': 'Overlaps the period from 2020-01-01' });
  });

  it('refuses areas that are not positive, ends before starts and days that do not exist', () => {
    expect(messages([{ from: '2020-01-01', floorAreaM2: 0 }])).toEqual({
      '0.floorAreaM2': 'Must be greater than 0',
    });
    expect(messages([{ from: '2020-01-01', floorAreaM2: -5 }])).toEqual({
      '0.floorAreaM2': 'Must be greater than 0',
    });
    expect(messages([{ from: '2020-05-01', to: '2020-04-30', floorAreaM2: 10 }])).toEqual({
      '0.to': 'Must be on or after the start date',
    });
    expect(messages([{ from: '2023-02-29', floorAreaM2: 10 }])).toEqual({ '0.from': 'Must be a real date' });
  });
});
