import { Button, Group, Input, Pill, Stack, TextInput } from '@mantine/core';
import { useId, useState } from 'react';

interface CategoryListProps {
  label: string;
  values: readonly string[];
  error?: string;
  onChange: (values: string[]) => void;
}

/** An editable list of names: each shown with a remove button, and a box to add one more. */
export function CategoryList({ label, values, error, onChange }: CategoryListProps) {
  const id = useId();
  const [next, setNext] = useState('');
  const add = () => {
    const name = next.trim();
    if (!name) return;
    if (!values.some((v) => v.toLowerCase() === name.toLowerCase())) onChange([...values, name]);
    setNext('');
  };
  return (
    <Input.Wrapper label={label} error={error} id={id}>
      <Stack gap={6} mt={4}>
        <Group gap={6} role="list" aria-label={label}>
          {values.map((v) => (
            <Pill
              key={v}
              role="listitem"
              withRemoveButton
              onRemove={() => onChange(values.filter((x) => x !== v))}
              removeButtonProps={{ 'aria-label': `Remove ${v}` }}
            >
              {v}
            </Pill>
          ))}
        </Group>
        <Group gap={6} wrap="nowrap">
          <TextInput
            id={id}
            aria-label={`New ${label.toLowerCase()}`}
            placeholder="Add a category"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            style={{ flex: 1 }}
          />
          <Button variant="default" onClick={add} aria-label={`Add to ${label.toLowerCase()}`}>
            Add
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
