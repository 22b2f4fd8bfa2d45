import { Text } from '@mantine/core';

/**
 * The scope 3 parts an emissions answer leaves out for want of a confirmed factor (a year with no
 * published well-to-tank figure, gas read only by volume), said on screen so a gap is not read as 0.
 */
export function ScopeThreeGaps({ notCovered }: { notCovered: readonly string[] }) {
  if (notCovered.length === 0) return null;
  return (
    <Text size="xs" c="orange.8" data-testid="scope3-not-covered">
      Not covered in scope 3, for want of a confirmed factor (left out, not counted as 0):{' '}
      {notCovered.join(', ')}.
    </Text>
  );
}
