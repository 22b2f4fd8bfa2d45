import { describe, expect, it } from 'vitest';
import { compareEnergy, figuresFor } from '../../../shared/benchmarks/energy-benchmarks.ts';

describe('energy benchmarks', () => {
  it('places a site against a target', () => {
    expect(compareEnergy(50, { propertyType: 'Office', target: 55 })).toEqual({
      rating: 'meets-target',
      gap: -5,
      reference: 'target',
    });
    expect(compareEnergy(70, { propertyType: 'Office', target: 55 })).toMatchObject({
      rating: 'above-target',
      gap: 15,
    });
  });

  it('places a site between good practice and typical', () => {
    const figures = { propertyType: 'Office', goodPractice: 100, typical: 200 };
    expect(compareEnergy(90, figures).rating).toBe('good-practice');
    expect(compareEnergy(150, figures)).toEqual({
      rating: 'better-than-typical',
      gap: 50,
      reference: 'goodPractice',
    });
    expect(compareEnergy(250, figures).rating).toBe('worse-than-typical');
  });

  it('matches a building type without case, and not at all when the set lacks it', () => {
    const set = [{ propertyType: 'Office', target: 55 }];
    expect(figuresFor(set, 'office')?.target).toBe(55);
    expect(figuresFor(set, 'Hotel')).toBeUndefined();
  });
});
