import { Alert, Badge } from '@mantine/core';
import { MARKETPLACE_MESSAGES } from '../../../shared/schemas/carbon-marketplace.ts';

export function ExampleBadge({ example }: { example: boolean }) {
  if (!example) return null;
  return (
    <Badge color="gray" variant="outline" title={MARKETPLACE_MESSAGES.example}>
      Example
    </Badge>
  );
}

export function ApproachBadge({ approach }: { approach?: string }) {
  if (!approach) return null;
  return (
    <Badge color={approach === 'removal' ? 'teal' : 'indigo'}>
      {approach === 'removal' ? 'Removal' : 'Avoidance'}
    </Badge>
  );
}

/** Said on every marketplace page: what a company buys here never lowers its reported emissions. */
export function NotNettedNote() {
  return (
    <Alert color="blue" variant="light">
      {MARKETPLACE_MESSAGES.notNetted}
    </Alert>
  );
}

export const moneyPerTonne = (price: number, currency = 'GBP') =>
  `${new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 2 }).format(price)} / t`;
