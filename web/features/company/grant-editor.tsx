import { Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { ItemType } from '../../../shared/system/resources.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import type { GrantableItem } from './api.ts';
import { type Access, accessOf, type Grants, grantedIds, ITEM_TYPES, setAccess } from './grants.ts';

const NOUNS: Record<ItemType, { title: string; one: string }> = {
  entities: { title: 'Entities', one: 'entity' },
  assets: { title: 'Assets', one: 'asset' },
  accounts: { title: 'Accounts', one: 'account' },
};

const ACCESS_OPTIONS = [
  { value: 'read', label: 'Read' },
  { value: 'write', label: 'Read and write' },
];

interface TypeEditorProps {
  type: ItemType;
  items: readonly GrantableItem[];
  grants: Grants;
  onChange: (grants: Grants) => void;
}

function TypeEditor({ type, items, grants, onChange }: TypeEditorProps) {
  const { title, one } = NOUNS[type];
  const [pick, setPick] = useState('');
  const [access, setAccessChoice] = useState<Access>('read');
  const granted = grantedIds(grants, type);
  const labelOf = new Map(items.map((i) => [i._id, i.label]));
  const free = items.filter((i) => !granted.includes(i._id));

  const add = () => {
    if (!pick) return;
    onChange(setAccess(grants, type, pick, access));
    setPick('');
  };

  return (
    <Stack gap="xs">
      <Title order={5}>{title}</Title>
      {granted.length === 0 ? (
        <Text size="sm" c="dimmed">
          No {title.toLowerCase()} granted.
        </Text>
      ) : (
        <Table aria-label={`Granted ${title.toLowerCase()}`}>
          <Table.Tbody>
            {granted.map((id) => {
              const name = labelOf.get(id) ?? id;
              return (
                <Table.Tr key={id}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td w={200}>
                    <NativeSelect
                      aria-label={`Access to ${name}`}
                      data={ACCESS_OPTIONS}
                      value={accessOf(grants, type, id)}
                      onChange={(e) => onChange(setAccess(grants, type, id, e.currentTarget.value as Access))}
                    />
                  </Table.Td>
                  <Table.Td w={100}>
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      aria-label={`Remove ${name}`}
                      onClick={() => onChange(setAccess(grants, type, id, 'none'))}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Group align="flex-end" gap="xs">
        <NativeSelect
          label={`Add ${one}`}
          data={[
            { value: '', label: `Choose ${/^[aeiou]/.test(one) ? 'an' : 'a'} ${one}` },
            ...free.map((i) => ({ value: i._id, label: i.label })),
          ]}
          value={pick}
          onChange={(e) => setPick(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <NativeSelect
          label={`Access to the new ${one}`}
          data={ACCESS_OPTIONS}
          value={access}
          onChange={(e) => setAccessChoice(e.currentTarget.value as Access)}
        />
        <Button variant="default" onClick={add} disabled={!pick}>
          Grant {one}
        </Button>
      </Group>
    </Stack>
  );
}

interface GrantEditorProps {
  grants: Grants;
  items: Record<ItemType, readonly GrantableItem[]>;
  isLoading: boolean;
  error: unknown;
  onChange: (grants: Grants) => void;
}

/** Read and write grants on the company's entities, assets and accounts, each chosen from a list. */
export function GrantEditor({ grants, items, isLoading, error, onChange }: GrantEditorProps) {
  if (error) return <ErrorPanel error={error} title="Could not load the company's items" />;
  if (isLoading) return <LoadingPanel label="Loading the company's items" />;
  return (
    <Stack gap="lg">
      {ITEM_TYPES.map((type) => (
        <TypeEditor key={type} type={type} items={items[type]} grants={grants} onChange={onChange} />
      ))}
    </Stack>
  );
}
