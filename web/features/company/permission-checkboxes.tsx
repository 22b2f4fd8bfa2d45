import { Checkbox, SimpleGrid } from '@mantine/core';
import { PERMISSION_NAMES, type PermissionName } from '../../../shared/access/permission-names.ts';
import { useSession } from '../../lib/app-context.tsx';

/** Only staff hand out 'admin'; everyone else sees the company's own permission strings. */
export function useAssignablePermissions(): readonly PermissionName[] {
  const { access } = useSession();
  return access.isAdmin ? PERMISSION_NAMES : PERMISSION_NAMES.filter((p) => p !== 'admin');
}

interface PermissionCheckboxesProps {
  label: string;
  value: readonly PermissionName[];
  error?: string;
  onChange: (value: PermissionName[]) => void;
}

/** The permission strings of 01 §6 as checkboxes. */
export function PermissionCheckboxes({ label, value, error, onChange }: PermissionCheckboxesProps) {
  const names = useAssignablePermissions();
  return (
    <Checkbox.Group
      label={label}
      error={error}
      value={[...value]}
      onChange={(v) => onChange(names.filter((n) => v.includes(n)))}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} mt="xs" spacing="xs">
        {names.map((n) => (
          <Checkbox key={n} value={n} label={n} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
