import { Stack, Title } from '@mantine/core';
import { useCreateSupplier } from './api.ts';
import { draftOf, SupplierForm } from './supplier-form.tsx';

/** /suppliers/create */
export function SupplierCreatePage() {
  const createSupplier = useCreateSupplier();
  return (
    <Stack>
      <Title order={2}>Create supplier</Title>
      <SupplierForm initial={draftOf()} submitLabel="Create supplier" send={createSupplier} />
    </Stack>
  );
}
