import { describe, expect, it } from 'vitest';
import { isChunkLoadError } from '../../web/lib/chunk-error.ts';

describe('a part of the app that cannot be loaded', () => {
  it('is told apart from other errors so the new-version notice shows', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/chunk-X.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});
