import { Button, Group, Image, Input, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { useSWRConfig } from 'swr';
import { MESSAGES } from '../../../shared/messages.ts';
import { showToast } from '../../components/toast-store.ts';
import { useApi, useServices } from '../../lib/app-context.tsx';
import { formFailureOf } from '../../lib/form-errors.ts';
import { type CompanyView, companyKeys, type LogoTicket } from './api.ts';
import { checkLogoFile } from './png.ts';

/** PUTs the file to its presigned URL; the object store answers without the API's bearer token. */
async function putFile(ticket: LogoTicket, file: Blob): Promise<void> {
  const answer = await fetch(ticket.uploadUrl, {
    method: ticket.method,
    headers: { 'Content-Type': ticket.contentType },
    body: file,
  });
  if (!answer.ok) throw new Error(`The upload failed (${answer.status})`);
}

/**
 * The company logo: checked in the browser (a PNG at least 200 px wide), uploaded to a presigned URL,
 * then confirmed, when the API checks it again. The header shows it, 'Powered By' Voltfolio, while
 * showLogo is on.
 */
export function LogoSection({ company }: { company: CompanyView }) {
  const api = useApi();
  const services = useServices();
  const revalidator = useRevalidator();
  const { mutate } = useSWRConfig();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'upload' | 'toggle' | null>(null);
  const settings = company.settings ?? {};

  /** The header reads the session: it is fetched again so the new logo shows at once. */
  async function refresh(next?: CompanyView) {
    await mutate(companyKeys.company, next);
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
      const ticket = await api.post<LogoTicket>('/companies/upload-logo', { companyId: company._id });
      await putFile(ticket, file);
      await api.put<CompanyView>(`/companies/${company._id}/logo`, { key: ticket.key });
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
      await api.patch<CompanyView>(`/companies/${company._id}`, { settings: { showLogo } });
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
