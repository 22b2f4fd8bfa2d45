import { Button, Group, Image, Input, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { MESSAGES } from '../../../shared/messages.ts';
import { showToast } from '../../components/toast-store.ts';
import { useServices } from '../../lib/app-context.tsx';
import { formFailureOf } from '../../lib/form-errors.ts';
import { type CompanyView, useShowLogo, useUploadLogo } from './api.ts';
import { checkLogoFile } from './png.ts';

/**
 * The company logo: checked in the browser (a PNG at least 200 px wide), uploaded to a presigned URL,
 * then confirmed, when the API checks it again. The header shows it, 'Powered By' Voltfolio, while
 * showLogo is on.
 */
export function LogoSection({ company }: { company: CompanyView }) {
  const uploadLogo = useUploadLogo();
  const setShowLogo = useShowLogo();
  const services = useServices();
  const revalidator = useRevalidator();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'upload' | 'toggle' | null>(null);
  const settings = company.settings ?? {};

  /** The header reads the session: it is fetched again so the new logo shows at once. */
  async function refresh() {
    services.session.forget();
    await revalidator.revalidate();
  }

  async function upload() {
    const problem = await checkLogoFile(file);
    if (problem || !file) {
      setError(problem ?? MESSAGES.logoMissing);
      return;
    }
    setError(null);
    setBusy('upload');
    try {
      await uploadLogo(company._id, file);
      await refresh();
      setFile(null);
      showToast('Logo updated', 'success');
    } catch (caught) {
      const failure = formFailureOf(caught);
      setError(failure.fields.logo ?? failure.message ?? MESSAGES.submitProblem);
      showToast('There was a problem uploading the logo.', 'error');
    } finally {
      setBusy(null);
    }
  }

  async function toggle(showLogo: boolean) {
    setBusy('toggle');
    try {
      await setShowLogo(company._id, showLogo);
      await refresh();
      showToast(showLogo ? 'The logo is shown' : 'The logo is hidden', 'success');
    } catch {
      showToast(MESSAGES.submitProblem, 'error');
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder p="md" maw={720}>
      <Stack>
        <Title order={4}>Logo</Title>
        {settings.logoUrl ? (
          <Image src={settings.logoUrl} alt={`${company.name} logo`} h={48} w="auto" fit="contain" />
        ) : (
          <Text c="dimmed" size="sm">
            No logo yet.
          </Text>
        )}
        <Switch
          label="Show logo in the header"
          checked={settings.showLogo === true}
          disabled={busy !== null || !settings.logoUrl}
          onChange={(e) => toggle(e.currentTarget.checked)}
        />
        <Input.Wrapper
          label="Logo file"
          description="A PNG image, at least 200 px wide"
          error={error ?? undefined}
          id={inputId}
        >
          <input
            id={inputId}
            type="file"
            accept="image/png"
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setError(null);
            }}
            style={{ display: 'block', marginTop: 6 }}
          />
        </Input.Wrapper>
        <Group>
          <Button onClick={upload} loading={busy === 'upload'}>
            Upload logo
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
