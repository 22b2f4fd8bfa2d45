import { Stack, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useCreateSupplier } from './api.ts';
import { draftOf, SupplierForm } from './supplier-form.tsx';

/** /suppliers/create; ?name= fills in the name, as a bill read it when no supplier matched. */
export function SupplierCreatePage() {
  const createSupplier = useCreateSupplier();
  const [params] = useSearchParams();
  const name = params.get('name')?.slice(0, 200) ?? '';
  return (
    <Stack>
      <Title order={2}>Create supplier</Title>
      <SupplierForm initial={{ ...draftOf(), name }} submitLabel="Create supplier" send={createSupplier} />
    </Stack>
  );
}
