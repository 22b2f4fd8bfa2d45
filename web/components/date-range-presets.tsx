import { Group, NativeSelect, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { type DayRange, dateRangePresets, singleDatePresets, withRangeDay } from '../lib/date-presets.ts';

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
  onChange: (range: DayRange) => void;
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

/** A period: a preset, or any From and To typed in; the two ends never cross. */
export function DateRangeField({
  value,
  onChange,
  now,
}: {
  value: DayRange;
  onChange: (range: DayRange) => void;
  now?: Date;
}) {
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <DateRangePresetSelect start={value.start} end={value.end} onChange={onChange} now={now} />
      <TextInput
        label="From"
        type="date"
        value={value.start}
        onChange={(e) => onChange(withRangeDay(value, 'start', e.currentTarget.value))}
      />
      <TextInput
        label="To"
        type="date"
        value={value.end}
        onChange={(e) => onChange(withRangeDay(value, 'end', e.currentTarget.value))}
      />
    </Group>
  );
}

/** One date with the single-date presets beside it (Today, Yesterday, 1 Week Ago...) (01 §9). */
export function SingleDateField({
  label,
  value,
  onChange,
  error,
  required,
  now,
}: {
  label: string;
  value: string;
  onChange: (day: string) => void;
  error?: string;
  required?: boolean;
  now?: Date;
}) {
  const presets = useMemo(() => singleDatePresets(now), [now]);
  const current = presets.find((p) => p.date === value)?.key ?? '';
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        type="date"
        required={required}
        value={value}
        error={error}
        onChange={(e) => onChange(e.currentTarget.value)}
        style={{ flex: 1 }}
      />
      <NativeSelect
        label="Quick pick"
        aria-label={`${label}: quick pick`}
        value={current}
        onChange={(event) => {
          const preset = presets.find((p) => p.key === event.currentTarget.value);
          if (preset) onChange(preset.date);
        }}
        data={[
          { value: '', label: 'Other date', disabled: true },
          ...presets.map((p) => ({ value: p.key, label: p.label })),
        ]}
      />
    </Group>
  );
}
