import { SegmentedControl } from '@mantine/core';
import type { AreaUnitSystem } from '../../lib/format.ts';

export function AreaUnitToggle({
  value,
  onChange,
}: {
  value: AreaUnitSystem;
  onChange: (v: AreaUnitSystem) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="Floor area unit"
      value={value}
      onChange={(v) => onChange(v as AreaUnitSystem)}
      data={[
        { value: 'metric', label: 'm²' },
        { value: 'imperial', label: 'ft²' },
      ]}
    />
  );
}
