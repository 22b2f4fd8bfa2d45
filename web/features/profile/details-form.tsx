import { Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useRevalidator } from 'react-router';
import { showToast } from '../../components/toast-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useServices, useSession } from '../../lib/app-context.tsx';
import { isLanguage, LANGUAGES } from '../../lib/i18n.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { useUpdateProfile } from './profile-api.ts';

/** The user's own name and interface language: PATCH /users/me, then the shell shows the new values. */
export function DetailsForm() {
  const t = useT();
  const { me } = useSession();
  const { session } = useServices();
  const updateProfile = useUpdateProfile();
  const revalidator = useRevalidator();
  const [name, setName] = useState(me.name ?? '');
  const chosen = me.settings?.language;
  const [language, setLanguage] = useState(isLanguage(chosen) ? chosen : '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setErrors({ name: t('form.required') });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await updateProfile({ name: name.trim(), language: language || null });
      showToast(t('profile.updated'), 'success');
      session.forget();
      await revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError && error.formMessages) setErrors(error.formMessages);
      showToast(t('profile.problem'), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={420}>
          <Title order={4}>{t('profile.details')}</Title>
          <TextInput
            label={t('profile.name')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
            maxLength={100}
          />
          <NativeSelect
            label={t('profile.language')}
            value={language}
            onChange={(event) => setLanguage(event.currentTarget.value)}
            error={errors.language}
            data={[
              { value: '', label: 'Browser default' },
              ...LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) })),
            ]}
          />
          <Group>
            <Button type="submit" loading={saving}>
              {t('profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
