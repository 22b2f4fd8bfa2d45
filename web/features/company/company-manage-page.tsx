import {
  Alert,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Switch,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { CALENDAR_PERIODS, INVOICE_FILE_NAME_LIMIT } from '../../../shared/schemas/company.ts';
import { EMAIL_CAPTURE_OFF } from '../../../shared/schemas/staff-admin.ts';
import type { MeesScenario } from '../../../shared/targets/regulatory-calendar.ts';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { type FormFailure, formFailureOf, NO_FAILURE, withoutField } from '../../lib/form-errors.ts';
import { type CalendarPeriod, type CompanyView, useCompany, useUpdateCompany } from './api.ts';
import { CategoryList } from './category-list.tsx';
import { CompanyLayout } from './company-layout.tsx';
import { LogoSection } from './logo-section.tsx';

const LISTS = [
  ['invoiceCategories', 'Invoice categories'],
  ['miscInvoiceCategories', 'Misc invoice categories'],
  ['messageCategories', 'Message categories'],
  ['documentCategories', 'Document categories'],
] as const;
type ListField = (typeof LISTS)[number][0];

interface SettingsDraft extends Record<ListField, string[]> {
  calendarPeriod: CalendarPeriod;
  meesScenario: MeesScenario;
  hideCostData: boolean;
  invoiceCaptureEmail: string;
  invoiceCaptureSendersOnly: boolean;
  invoiceCaptureSenders: string[];
  /** Empty while the field is cleared; saved as the default then. */
  invoiceFileNameLimit: number | '';
}

const draftOf = (c: CompanyView): SettingsDraft => {
  const s = c.settings ?? {};
  return {
    calendarPeriod: s.calendarPeriod ?? 'Standard',
    meesScenario: s.meesScenario === 'in-force' ? 'in-force' : 'proposed',
    hideCostData: s.hideCostData === true,
    invoiceCaptureEmail: s.invoiceCaptureEmail ?? '',
    invoiceCaptureSendersOnly: s.invoiceCaptureSendersOnly === true,
    invoiceCaptureSenders: s.invoiceCaptureSenders ?? [],
    invoiceFileNameLimit: s.invoiceFileNameLimit ?? INVOICE_FILE_NAME_LIMIT.default,
    invoiceCategories: s.invoiceCategories ?? [],
    miscInvoiceCategories: s.miscInvoiceCategories ?? [],
    messageCategories: s.messageCategories ?? [],
    documentCategories: s.documentCategories ?? [],
  };
};

/** A server message about any item of a list (`settings.invoiceCategories.2`) shows beside the list. */
function listError(fields: Record<string, string>, field: ListField): string | undefined {
  const key = Object.keys(fields).find(
    (k) => k === `settings.${field}` || k.startsWith(`settings.${field}.`),
  );
  return key ? fields[key] : undefined;
}

export function SettingsForm({ company }: { company: CompanyView }) {
  const updateCompany = useUpdateCompany();
  const [draft, setDraft] = useState(() => draftOf(company));
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const captureOff = company.featuresOff?.includes('email-capture') === true;

  const change = <K extends keyof SettingsDraft>(field: K, value: SettingsDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setFailure((f) => withoutField(f, `settings.${field}`));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const email = draft.invoiceCaptureEmail.trim();
      // While e-mail capture is off the address is hidden, and kept as it is for when it comes back.
      const { invoiceCaptureEmail: _hidden, ...rest } = draft;
      await updateCompany(company._id, {
        settings: {
          ...rest,
          ...(captureOff ? {} : { invoiceCaptureEmail: email === '' ? null : email }),
          invoiceFileNameLimit: draft.invoiceFileNameLimit === '' ? null : draft.invoiceFileNameLimit,
        },
      });
      setFailure(NO_FAILURE);
      showToast('Company settings saved', 'success');
    } catch (error) {
      const shown = [
        'settings.calendarPeriod',
        'settings.meesScenario',
        'settings.hideCostData',
        'settings.invoiceCaptureEmail',
        'settings.invoiceCaptureSendersOnly',
        'settings.invoiceFileNameLimit',
      ];
      const f = formFailureOf(error);
      const unshown = Object.keys(f.fields).filter(
        (k) =>
          !shown.includes(k) &&
          !k.startsWith('settings.invoiceCaptureSenders.') &&
          k !== 'settings.invoiceCaptureSenders' &&
          !LISTS.some(([field]) => k.startsWith(`settings.${field}`)),
      );
      setFailure(unshown.length > 0 ? { ...f, message: unshown.map((k) => f.fields[k]).join(' ') } : f);
      showToast('There was a problem saving the company settings.', 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={save}
      noValidate
      maw={720}
      aria-label="Company settings"
    >
      <Stack>
        <Title order={4}>Settings</Title>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <NativeSelect
          label="Calendar period"
          data={[...CALENDAR_PERIODS]}
          value={draft.calendarPeriod}
          error={failure.fields['settings.calendarPeriod']}
          onChange={(e) => change('calendarPeriod', e.currentTarget.value as CalendarPeriod)}
        />
        <NativeSelect
          label="MEES dates on the regulatory calendar"
          description="What the calendar, site timelines and calendar feeds show unless a page is switched"
          data={[
            { value: 'proposed', label: 'Proposed: C from 2027, B from 2030 (not yet law)' },
            { value: 'in-force', label: 'In force: E only' },
          ]}
          value={draft.meesScenario}
          error={failure.fields['settings.meesScenario']}
          onChange={(e) =>
            change('meesScenario', e.currentTarget.value === 'in-force' ? 'in-force' : 'proposed')
          }
        />
        <Switch
          label="Hide cost data"
          checked={draft.hideCostData}
          error={failure.fields['settings.hideCostData']}
          onChange={(e) => change('hideCostData', e.currentTarget.checked)}
        />
        {LISTS.map(([field, label]) => (
          <CategoryList
            key={field}
            label={label}
            values={draft[field]}
            error={listError(failure.fields, field)}
            onChange={(values) => change(field, values)}
          />
        ))}
        {captureOff ? (
          <Alert color="gray" title="E-mail capture is off">
            {EMAIL_CAPTURE_OFF}
          </Alert>
        ) : (
          <TextInput
            label="Invoice capture email"
            type="email"
            value={draft.invoiceCaptureEmail}
            error={failure.fields['settings.invoiceCaptureEmail']}
            onChange={(e) => change('invoiceCaptureEmail', e.currentTarget.value)}
          />
        )}
        <Switch
          label="Take invoice e-mail only from the accepted senders"
          description="Off: mail from anyone is taken, and administrators are told of each new sender"
          checked={draft.invoiceCaptureSendersOnly}
          error={failure.fields['settings.invoiceCaptureSendersOnly']}
          onChange={(e) => change('invoiceCaptureSendersOnly', e.currentTarget.checked)}
        />
        <CategoryList
          label="Accepted senders (addresses, or @domain)"
          values={draft.invoiceCaptureSenders}
          error={
            Object.entries(failure.fields).find(([k]) => k.startsWith('settings.invoiceCaptureSenders'))?.[1]
          }
          onChange={(values) => change('invoiceCaptureSenders', values)}
        />
        <NumberInput
          label="Invoice file name part length"
          description={`Downloaded invoices are named by legal name and site name, each cut at this many characters (${INVOICE_FILE_NAME_LIMIT.min} to ${INVOICE_FILE_NAME_LIMIT.max})`}
          value={draft.invoiceFileNameLimit}
          min={INVOICE_FILE_NAME_LIMIT.min}
          max={INVOICE_FILE_NAME_LIMIT.max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          w={260}
          error={failure.fields['settings.invoiceFileNameLimit']}
          onChange={(v) =>
            change('invoiceFileNameLimit', typeof v === 'number' ? v : v === '' ? '' : Number(v))
          }
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /company/manage: the company's settings and its logo (01 §3). */
function CompanyManageContent() {
  const { data, error, isLoading } = useCompany();
  return (
    <CompanyLayout tab="manage">
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && (
        <>
          <SettingsForm key={data._id} company={data} />
          <LogoSection company={data} />
        </>
      )}
    </CompanyLayout>
  );
}

export function CompanyManagePage() {
  return (
    <ChangesOnly>
      <CompanyManageContent />
    </ChangesOnly>
  );
}
