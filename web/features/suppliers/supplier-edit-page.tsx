import { Alert, Button, FileButton, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { showToast } from '../../components/toast-store.ts';
import { formFailureOf } from '../../lib/form-errors.ts';
import { type Supplier, useRemoveSupplierLogo, useUpdateSupplier, useUploadSupplierLogo } from './api.ts';
import { draftOf, SupplierForm } from './supplier-form.tsx';
import { SupplierLayout } from './supplier-layout.tsx';

/** The logo: a PNG at least 200 px wide, sent straight to storage and then checked by the API. */
function LogoPanel({ supplier }: { supplier: Supplier }) {
  const uploadLogo = useUploadSupplierLogo();
  const removeLogo = useRemoveSupplierLogo();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function upload(file: File | null) {
    if (!file) return;
    setProblem(undefined);
    if (file.type !== 'image/png' && !file.name.toLowerCase().endsWith('.png')) {
      setProblem(MESSAGES.logoRule);
      return;
    }
    setBusy(true);
    try {
      await uploadLogo(supplier._id, file);
      showToast('Logo saved', 'success');
    } catch (error) {
      const failure = formFailureOf(error);
      setProblem(failure.fields.logo ?? failure.message);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await removeLogo(supplier._id);
    } catch (error) {
      setProblem(formFailureOf(error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" maw={640}>
      <Stack>
        <Title order={4}>Logo</Title>
        {supplier.logoUrl ? (
          <Image src={supplier.logoUrl} alt={`${supplier.name} logo`} h={60} w="auto" fit="contain" />
        ) : (
          <Text size="sm" c="dimmed">
            No logo yet. {MESSAGES.logoRule}.
          </Text>
        )}
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group>
          <FileButton onChange={upload} accept="image/png">
            {(props) => (
              <Button {...props} loading={busy} variant="light">
                {supplier.logoUrl ? 'Replace logo' : 'Upload logo'}
              </Button>
            )}
          </FileButton>
          {supplier.logoUrl && (
            <Button variant="subtle" color="red" onClick={remove} disabled={busy}>
              Remove logo
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** /suppliers/{id}/edit: the supplier's details and its logo. */
export function SupplierEditPage() {
  const updateSupplier = useUpdateSupplier();
  return (
    <SupplierLayout tab="edit">
      {(supplier) => (
        <Stack>
          <SupplierForm
            key={supplier._id}
            initial={draftOf(supplier)}
            submitLabel="Save"
            send={(body) => updateSupplier(supplier._id, body)}
          />
          <LogoPanel supplier={supplier} />
        </Stack>
      )}
    </SupplierLayout>
  );
}
