import { Badge } from '@mantine/core';
import type { RecommendationView } from '../lib/recommendations-api.ts';

export const PRIORITIES = ['low', 'medium', 'high'] as const;

const PRIORITY_COLOURS = { low: 'gray', medium: 'yellow', high: 'red' } as const;

/** A recommendation's priority, coloured so the high ones stand out in a list. */
export function PriorityBadge({ priority }: { priority: RecommendationView['priority'] }) {
  return (
    <Badge variant="light" color={PRIORITY_COLOURS[priority] ?? 'gray'}>
      {priority}
    </Badge>
  );
}

/** A saving or cost as typed (thousands commas allowed); an empty box is no figure at all. */
export const typedAmount = (v: string) => (v.trim() ? Number(v.replace(/,/g, '')) : undefined);
