import { Button, Group, TextInput } from '@mantine/core';
import { parseTags } from './validation-state.ts';

/** Comma-separated tags to add, with the button that adds them (only once there is a tag to add). */
export function TagField({
  label,
  value,
  onChange,
  disabled,
  loading,
  onTag,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  loading?: boolean;
  onTag: (tags: string[]) => unknown;
}) {
  const tags = parseTags(value);
  return (
    <Group gap={4} align="end">
      <TextInput
        size="xs"
        label={label}
        placeholder="comma, separated"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <Button
        size="xs"
        variant="light"
        disabled={disabled || tags.length === 0}
        loading={loading}
        onClick={() => onTag(tags)}
      >
        Tag
      </Button>
    </Group>
  );
}
