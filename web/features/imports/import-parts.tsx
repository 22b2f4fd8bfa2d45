import { Badge, Group, Stepper, Text } from '@mantine/core';
import { IMPORT_TYPE_LABELS, type ImportType } from '../../../shared/imports/import-mapping.ts';
import type { ImportStatus, OutcomeTotals } from './api.ts';

const STATUS_COLOURS: Record<ImportStatus, string> = {
  pending: 'gray',
  processing: 'blue',
  completed: 'green',
  error: 'red',
  'rolled-back': 'orange',
};

export const StatusBadge = ({ status }: { status: ImportStatus }) => (
  <Badge color={STATUS_COLOURS[status]}>{status}</Badge>
);

export const typeLabel = (type: ImportType) => IMPORT_TYPE_LABELS[type] ?? type;

/** The counts of a dry run or an import, by outcome. */
export function Totals({ totals }: { totals: OutcomeTotals }) {
  return (
    <Group gap="lg" aria-label="Totals">
      <Text>
        <strong>{totals.create}</strong> to create
      </Text>
      <Text>
        <strong>{totals.update}</strong> to update
      </Text>
      <Text>
        <strong>{totals.unchanged}</strong> unchanged
      </Text>
      <Text c={totals.error > 0 ? 'red' : undefined}>
        <strong>{totals.error}</strong> with errors
      </Text>
    </Group>
  );
}

const STEPS = ['upload', 'mapping', 'preview', 'import'] as const;

export const WizardSteps = ({ step }: { step: (typeof STEPS)[number] }) => (
  <Stepper active={STEPS.indexOf(step)} size="sm">
    <Stepper.Step label="Upload" />
    <Stepper.Step label="Mapping" />
    <Stepper.Step label="Preview" />
    <Stepper.Step label="Import" />
  </Stepper>
);
