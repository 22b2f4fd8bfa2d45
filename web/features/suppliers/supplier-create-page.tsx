import { Stack, Title } from '@mantine/core';
import { useApi } from '../../lib/app-context.tsx';
import type { Supplier } from './api.ts';
import { draftOf, SupplierForm } from './supplier-form.tsx';

/** /suppliers/create */
export function SupplierCreatePage() {
  const api = useApi();
  return (
    <Stack>
      <Title order={2}>Create supplier</Title>
      <SupplierForm
        initial={draftOf()}
        submitLabel="Create supplier"
        send={(body) => api.post<Supplier>('/suppliers', body)}
      />
    </Stack>
  );
}
