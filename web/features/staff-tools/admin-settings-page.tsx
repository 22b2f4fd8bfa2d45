import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  FEATURE_FLAGS,
  type FeatureFlag,
  type ProductSettings,
} from '../../../shared/schemas/staff-admin.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useProductSettings, useSaveProductSettings } from './api.ts';

const FEEDS = [
  ['newsUrl', 'News feed (RSS)'],
  ['weatherUrl', 'Weather feed (Open-Meteo forecast)'],
  ['travelUrl', 'Travel feed (RSS)'],
] as const;

const LIMITS = [
  ['maxFileMb', 'Largest bill file (MB)'],
  ['maxPagesPerBill', 'Most pages in a bill'],
  ['maxBillsPerDay', 'Most bills a company captures a day'],
] as const;

/** Drops empty feed addresses, which mean "the default", rather than sending them as text. */
function cleaned(s: ProductSettings): ProductSettings {
  const feeds = Object.fromEntries(Object.entries(s.kioskFeeds).filter(([, v]) => v && v.trim() !== ''));
  // Flags stored before each named a feature are dropped: the server refuses names it does not gate.
  const flags = Object.fromEntries(Object.entries(s.featureFlags).filter(([name]) => name in FEATURE_FLAGS));
  return {
    ...s,
    ...(s.defaultFactorSet?.trim() ? {} : { defaultFactorSet: undefined }),
    featureFlags: flags,
    kioskFeeds: feeds,
  };
}

/** /admin/settings: settings of the whole product (default factor set, capture limits, flags, kiosk feeds). */
export function AdminSettingsPage() {
  const { data, error, isLoading } = useProductSettings();
  const save = useSaveProductSettings();
  const [draft, setDraft] = useState<ProductSettings>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; fields?: Record<string, string> }>();
  useEffect(() => {
    if (data && !draft) {
      const { updatedAt: _at, updatedBy: _by, ...settings } = data;
      setDraft(settings);
    }
  }, [data, draft]);
  if (isLoading || (!draft && !error)) return <LoadingPanel />;
  if (error || !draft) return <ErrorPanel error={error} title="There was a problem getting the settings." />;
  const submit = async () => {
    try {
      await save(cleaned(draft));
      setOutcome({ ok: true, text: 'Settings saved.' });
    } catch (err) {
      const fields = (err as { formMessages?: Record<string, string> }).formMessages;
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err), fields });
    }
  };
  const fieldError = (path: string) => outcome?.fields?.[path];
  return (
    <Stack maw={720}>
      <Title order={2}>Product settings</Title>
      {data?.updatedAt && (
        <Text size="sm" c="dimmed">
          Last changed {formatDateTime(data.updatedAt)} by {data.updatedBy}.
        </Text>
      )}
      <Paper withBorder p="md">
        <Stack>
          <TextInput
            label="Default emission factor set"
            value={draft.defaultFactorSet ?? ''}
            onChange={(e) => setDraft({ ...draft, defaultFactorSet: e.currentTarget.value })}
            error={fieldError('defaultFactorSet')}
          />
          <Title order={4}>Capture limits</Title>
          {LIMITS.map(([key, label]) => (
            <NumberInput
              key={key}
              label={label}
              value={draft.captureLimits[key]}
              min={1}
              onChange={(v) =>
                setDraft({ ...draft, captureLimits: { ...draft.captureLimits, [key]: Number(v) || 0 } })
              }
              error={fieldError(`captureLimits.${key}`)}
            />
          ))}
          <Title order={4}>Feature flags</Title>
          {(Object.entries(FEATURE_FLAGS) as [FeatureFlag, string][]).map(([name, label]) => (
            <Switch
              key={name}
              label={label}
              // A flag never set leaves its feature on.
              checked={draft.featureFlags[name] !== false}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  featureFlags: { ...draft.featureFlags, [name]: e.currentTarget.checked },
                })
              }
            />
          ))}
          <Title order={4}>Kiosk feeds</Title>
          <Text size="sm" c="dimmed">
            Addresses may hold {'{lat}'}, {'{lng}'} and {'{postcode}'}; left empty, the default feed is used.
          </Text>
          {FEEDS.map(([key, label]) => (
            <TextInput
              key={key}
              label={label}
              value={draft.kioskFeeds[key] ?? ''}
              onChange={(e) =>
                setDraft({ ...draft, kioskFeeds: { ...draft.kioskFeeds, [key]: e.currentTarget.value } })
              }
              error={fieldError(`kioskFeeds.${key}`)}
            />
          ))}
          <Group>
            <Button onClick={() => void submit()}>Save settings</Button>
          </Group>
          {outcome && (
            <Alert color={outcome.ok ? 'teal' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
              {outcome.text}
            </Alert>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
