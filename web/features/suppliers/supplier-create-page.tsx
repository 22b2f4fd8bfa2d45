import { Stack, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useCreateSupplier } from './api.ts';
import { draftOf, SupplierForm } from './supplier-form.tsx';

/**
 * /suppliers/create; ?name=, ?vatNumber= and ?website= fill in what a bill printed when no supplier
 * matched it.
 */
export function SupplierCreatePage() {
  const createSupplier = useCreateSupplier();
  const [params] = useSearchParams();
  const name = params.get('name')?.slice(0, 200) ?? '';
  const vatNumber = params.get('vatNumber')?.slice(0, 30) ?? '';
  const website = params.get('website')?.slice(0, 500) ?? '';
  return (
    <Stack>
      <Title order={2}>Create supplier</Title>
      <SupplierForm
        initial={{ ...draftOf(), name, vatNumber, website }}
        submitLabel="Create supplier"
        send={createSupplier}
      />
    </Stack>
  );
}
