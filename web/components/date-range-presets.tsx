import { NativeSelect } from '@mantine/core';
import { useMemo } from 'react';
import { type DateRangePreset, dateRangePresets } from '../lib/date-presets.ts';

/**
 * A picker of the date range presets (01 §9). It names the preset the current range matches, so a
 * range typed in by hand shows as "Custom range".
 */
export function DateRangePresetSelect({
  start,
  end,
  onChange,
  label = 'Period',
  now,
}: {
  start: string | null;
  end: string | null;
  onChange: (range: Pick<DateRangePreset, 'start' | 'end'>) => void;
  label?: string;
  now?: Date;
}) {
  const presets = useMemo(() => dateRangePresets(now), [now]);
  const current = presets.find((p) => p.start === start && p.end === end)?.key ?? '';
  return (
    <NativeSelect
      label={label}
      value={current}
      onChange={(event) => {
        const preset = presets.find((p) => p.key === event.currentTarget.value);
        if (preset) onChange({ start: preset.start, end: preset.end });
      }}
      data={[
        { value: '', label: 'Custom range', disabled: true },
        ...presets.map((p) => ({ value: p.key, label: p.label })),
      ]}
    />
  );
}
