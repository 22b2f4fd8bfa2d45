/**
 * Guards for what a test compares. A lookup that misses, or a list that comes out empty, would
 * otherwise leave an assertion comparing two absences, or a loop asserting nothing, and the test
 * would pass whatever the code did.
 */

/** The value a test goes on to check, or a failure naming what was not there. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

/** The items a test checks one by one, or a failure naming what it found none of. */
export function nonEmpty<T>(items: readonly T[], what: string): readonly T[] {
  if (items.length === 0) throw new Error(`No ${what} to check`);
  return items;
}
