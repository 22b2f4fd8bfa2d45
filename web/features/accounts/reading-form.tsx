import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { ReadingView } from '../../../shared/schemas/account-readings.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { useApi } from '../../lib/app-context.tsx';
import { putWithProgress } from '../../lib/upload.ts';
import { type FormFailure, formFailureOf, todayIso } from './api.ts';
import type { PresignedUpload } from './upload.ts';

/**
 * Submits a meter reading, or edits a submitted one, with an optional photo of the meter: the photo goes
 * to storage by a presigned PUT, then the reading call attaches it and the API checks it is an image.
 */
export function ReadingForm({
  account,
  reading,
  onDone,
  onCancel,
}: {
  account: AccountView;
  reading?: ReadingView;
  onDone: () => void;
  onCancel: () => void;
}) {
  const api = useApi();
  const [date, setDate] = useState(reading?.date ?? todayIso());
  const [value, setValue] = useState(reading ? String(reading.value) : '');
  const [isEstimate, setEstimate] = useState(reading?.isEstimate ?? false);
  const [comment, setComment] = useState(reading?.comment ?? '');
  const [photo, setPhoto] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) {
      setFailure({ fields: { value: 'Must be a number' } });
      return;
    }
    setBusy(true);
    setFailure({ fields: {} });
    try {
      let photoKey: string | undefined;
      if (photo) {
        const contentType = photo.type === 'image/png' ? 'image/png' : 'image/jpeg';
        const upload = await api.post<PresignedUpload>('/readings/photo', {
          accountId: account._id,
          fileName: photo.name,
          contentType,
        });
        setProgress(0);
        await putWithProgress(upload, photo, setProgress);
        photoKey = upload.key;
      }
      const body = {
        date,
        value: number,
        isEstimate,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
        ...(photoKey ? { photoKey } : {}),
      };
      if (reading) await api.put(`/readings/${reading._id}/edit-submission`, body);
      else await api.post('/readings/submit', { ...body, accountId: account._id });
      onDone();
    } catch (error) {
      setFailure(formFailureOf(error));
      setProgress(null);
    } finally {
      setBusy(false);
    }
  }

  const f = failure.fields;
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label="Reading">
      <Stack gap="sm">
        <Title order={5}>{reading ? 'Edit reading' : 'Submit a reading'}</Title>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput
            label="Date"
            type="date"
            required
            value={date}
            error={f.date}
            onChange={(e) => setDate(e.currentTarget.value)}
          />
          <TextInput
            label={`Reading (${account.unit ?? ''})`}
            required
            inputMode="decimal"
            value={value}
            error={f.value}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
        </Group>
        <TextInput
          label="Comment"
          value={comment}
          error={f.comment}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        <label style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 14 }}>
          <input
            type="checkbox"
            checked={isEstimate}
            onChange={(e) => setEstimate(e.currentTarget.checked)}
          />
          This is an estimate
        </label>
        <Stack gap={4}>
          <Text component="label" htmlFor="reading-photo" size="sm" fw={500}>
            Photo of the meter {reading?.hasPhoto ? '(replaces the current photo)' : ''}
          </Text>
          <input
            id="reading-photo"
            type="file"
            accept="image/jpeg,image/png"
            onChange={(e) => setPhoto(e.currentTarget.files?.[0] ?? null)}
          />
          {progress !== null && (
            <Group gap="xs">
              <progress value={progress} max={100} aria-label="Upload progress" style={{ flex: 1 }} />
              <Text size="xs">{progress === 100 ? 'Uploaded' : `Uploading ${progress}%`}</Text>
            </Group>
          )}
          {f.photo && (
            <Text c="red" size="sm" role="alert">
              {f.photo}
            </Text>
          )}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {reading ? 'Save reading' : 'Submit reading'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
