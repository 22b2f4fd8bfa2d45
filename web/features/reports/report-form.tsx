import { Button, Group, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import {
  INTENSITY_METRICS,
  INTENSITY_UNITS,
  REPORT_FORMATS,
  type SystemTemplateId,
  templateOf,
} from '../../../shared/reports/report-templates.ts';
import { FormPanel } from '../../components/form-panel.tsx';
import { useFormValues } from '../../lib/use-form-values.ts';
import { type ReportRequestBody, useGenerateReport, useSystemTemplates } from './api.ts';
import { ScopeFields } from './report-parts.tsx';
import { offeredScope, scopeIdOf, useReportSubmit } from './report-submit.ts';

const lastYear = new Date().getFullYear() - 1;
const FORMAT_LABELS = { pdf: 'PDF', xlsx: 'Excel workbook (XLSX)', csv: 'CSV' } as const;
const METRIC_LABELS = {
  'floor-area': 'Per m² of floor area',
  turnover: 'Per £m of turnover',
  employees: 'Per employee',
} as const;

/**
 * The form that asks for a report: template, scope, period and format (and SECR's intensity ratio). A
 * site's own page fixes the scope to the site.
 */
export function ReportForm({
  site,
  templateId,
  onQueued,
}: {
  site?: string;
  /** The template chosen first, when the page was opened for one. */
  templateId?: SystemTemplateId;
  onQueued?: (name: string) => void;
}) {
  const first = templateOf(templateId ?? (site ? 'site' : 'secr'));
  const { data: templates } = useSystemTemplates();
  const generate = useGenerateReport();
  const { failure, busy, done: queued, run } = useReportSubmit();
  const { values, field, set } = useFormValues(
    {
      templateId: first?.id ?? 'secr',
      scopeType: site ? 'asset' : (first?.scopes[0] ?? 'company'),
      scopeId: site ?? '',
      startDate: `${lastYear}-01-01`,
      endDate: `${lastYear}-12-31`,
      format: 'pdf',
      intensityMetric: '',
      intensityValue: '',
      intensityPreviousValue: '',
    },
    failure.fields,
  );
  const all = templates?.data ?? [];
  const offered = site ? all.filter((t) => t.scopes.includes('asset')) : all;
  const template = all.find((t) => t.id === values.templateId);
  const scopes = template?.scopes ?? ['company'];
  const scopeType = offeredScope(scopes, values.scopeType);

  const submit = () =>
    run(async () => {
      const body: ReportRequestBody = {
        templateId: values.templateId as SystemTemplateId,
        scopeType,
        ...scopeIdOf(scopeType, values.scopeId),
        startDate: values.startDate,
        endDate: values.endDate,
        format: values.format as ReportRequestBody['format'],
        ...(template?.intensity && values.intensityMetric
          ? {
              intensityMetric: values.intensityMetric as ReportRequestBody['intensityMetric'],
              intensityValue: values.intensityValue,
              ...(values.intensityPreviousValue
                ? { intensityPreviousValue: values.intensityPreviousValue }
                : {}),
            }
          : {}),
      };
      const report = await generate(body);
      onQueued?.(report.name);
      return report.name;
    });

  return (
    <FormPanel title="Generate a report" label="Generate a report" failure={failure} onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect
          label="Template"
          {...field('templateId')}
          data={offered.map((t) => ({ value: t.id, label: t.name }))}
        />
        <NativeSelect
          label="Format"
          {...field('format')}
          data={REPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
        />
      </SimpleGrid>
      {template && (
        <Text size="sm" c="dimmed">
          {template.description}
        </Text>
      )}
      {!site && <ScopeFields scopes={scopes} scopeType={scopeType} form={{ field, set }} failure={failure} />}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="From" type="date" {...field('startDate')} />
        <TextInput label="To" type="date" {...field('endDate')} />
      </SimpleGrid>
      {template?.intensity && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NativeSelect
            label="Intensity ratio"
            {...field('intensityMetric')}
            data={[
              { value: '', label: 'None' },
              ...INTENSITY_METRICS.map((m) => ({ value: m, label: METRIC_LABELS[m] })),
            ]}
          />
          {values.intensityMetric && (
            <>
              <TextInput
                label={`This period (${INTENSITY_UNITS[values.intensityMetric as keyof typeof INTENSITY_UNITS]})`}
                inputMode="decimal"
                {...field('intensityValue')}
              />
              <TextInput label="The period before" inputMode="decimal" {...field('intensityPreviousValue')} />
            </>
          )}
        </SimpleGrid>
      )}
      <Group>
        <Button type="submit" loading={busy}>
          Generate
        </Button>
        {queued && (
          <Text size="sm" role="status">
            {queued} is queued: it shows below as it is built.
          </Text>
        )}
      </Group>
    </FormPanel>
  );
}
