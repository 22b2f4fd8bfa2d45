import { Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ReadingView } from '../../../shared/schemas/account-readings.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { SingleDateField } from '../../components/date-range-presets.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { CheckboxLine, FormButtons, UploadField, useFormSubmit } from '../../components/form-parts.tsx';
import { clearedFields } from '../../lib/cleared-fields.ts';
import { putWithProgress } from '../../lib/upload.ts';
import { useFormValues } from '../../lib/use-form-values.ts';
import { todayIso, useEditReading, useReadingPhotoUpload, useSubmitReading } from './api.ts';

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
  const photoTarget = useReadingPhotoUpload();
  const submitReading = useSubmitReading(account._id);
  const editReading = useEditReading(account._id);
  const form = useFormSubmit();
  const { values, field, set } = useFormValues(
    {
      date: reading?.date ?? todayIso(),
      value: reading ? String(reading.value) : '',
      comment: reading?.comment ?? '',
    },
    form.fields,
  );
  const [isEstimate, setEstimate] = useState(reading?.isEstimate ?? false);
  const [photo, setPhoto] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  async function save() {
    const { date, value, comment } = values;
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) {
      form.setFailure({ fields: { value: 'Must be a number' } });
      return;
    }
    await form.submit(
      async () => {
        let photoKey: string | undefined;
        if (photo) {
          const contentType = photo.type === 'image/png' ? 'image/png' : 'image/jpeg';
          const upload = await photoTarget({
            accountId: account._id,
            fileName: photo.name,
            contentType,
            size: photo.size,
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
        if (reading)
          await editReading(reading._id, {
            ...clearedFields({ comment }, reading),
            ...body,
          });
        else await submitReading(body);
        onDone();
      },
      () => setProgress(null),
    );
  }

  return (
    <FormPanel
      title={reading ? 'Edit reading' : 'Submit a reading'}
      order={5}
      label="Reading"
      gap="sm"
      failure={form.failure}
      onSubmit={save}
    >
      <Group grow align="flex-start">
        <SingleDateField
          label="Date"
          required
          value={values.date}
          error={form.fields.date}
          onChange={set('date')}
        />
        <TextInput
          label={`Reading (${account.unit ?? ''})`}
          required
          inputMode="decimal"
          {...field('value')}
        />
      </Group>
      <TextInput label="Comment" {...field('comment')} />
      <CheckboxLine checked={isEstimate} onChange={setEstimate}>
        This is an estimate
      </CheckboxLine>
      <UploadField
        id="reading-photo"
        label={<>Photo of the meter {reading?.hasPhoto ? '(replaces the current photo)' : ''}</>}
        accept="image/jpeg,image/png"
        progress={progress}
        error={form.fields.photo}
        onChange={setPhoto}
      />
      <FormButtons busy={form.busy} onCancel={onCancel}>
        {reading ? 'Save reading' : 'Submit reading'}
      </FormButtons>
    </FormPanel>
  );
}
