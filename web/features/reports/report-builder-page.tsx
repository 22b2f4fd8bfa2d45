import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  CUSTOM_GROUPINGS,
  CUSTOM_MEASURES,
  CUSTOM_PERIODS,
  type CustomSectionKind,
  GROUPING_NAMES,
  MEASURE_NAMES,
  PERIOD_NAMES,
} from '../../../shared/reports/custom-templates.ts';
import {
  REPORT_FORMATS,
  type ReportFormat,
  type ReportScopeType,
} from '../../../shared/reports/report-templates.ts';
import { COMPANY_USERS } from '../../../shared/system/permission-sets.ts';
import { FormPanel } from '../../components/form-panel.tsx';
import { ErrorPanel } from '../../components/page-state.tsx';
import { type FormFailure, formFailureOf, NO_FAILURE } from '../../lib/form-errors.ts';
import { useMayChange } from '../../lib/may-change.ts';
import {
  type CustomSectionBody,
  type CustomTemplateBody,
  type CustomTemplateView,
  type PreviewDocument,
  useCreateTemplate,
  useCustomTemplates,
  useDeleteTemplate,
  useGenerateCustomReport,
  usePortfolioChoices,
  usePreviewTemplate,
  useSiteChoices,
  useUpdateTemplate,
} from './api.ts';
import { Preview } from './report-preview.tsx';

const KIND_NAMES: Readonly<Record<CustomSectionKind, string>> = {
  figures: 'Key figures',
  table: 'Table',
  chart: 'Chart',
  text: 'Text',
};
const SCOPE_LABELS: Readonly<Record<ReportScopeType, string>> = {
  company: 'Whole company',
  portfolio: 'A portfolio',
  asset: 'A site',
};
const FORMAT_LABELS = { pdf: 'PDF', xlsx: 'Excel workbook (XLSX)', csv: 'CSV' } as const;

const NEW_SECTION: Readonly<Record<CustomSectionKind, CustomSectionBody>> = {
  figures: { kind: 'figures', title: 'Key figures', measure: 'energy' },
  table: { kind: 'table', title: 'Energy by month', measure: 'energy', grouping: 'month' },
  chart: { kind: 'chart', title: 'Emissions by month', measure: 'emissions', grouping: 'month' },
  text: { kind: 'text', title: 'Notes', text: '' },
};

const EMPTY: CustomTemplateBody = {
  name: '',
  scopeType: 'company',
  period: 'last-12-months',
  sections: [NEW_SECTION.figures],
};

/** A section as edited: a key of its own keeps its fields' state when sections move. */
type KeyedSection = CustomSectionBody & { key: string };
type Draft = Omit<CustomTemplateBody, 'sections'> & { sections: KeyedSection[] };

let lastKey = 0;
const keyed = (section: CustomSectionBody): KeyedSection => {
  lastKey += 1;
  return { ...section, key: `section-${lastKey}` };
};
const draftOf = (t: CustomTemplateBody): Draft => ({ ...t, sections: t.sections.map(keyed) });

const bodyOf = (t: CustomTemplateView): CustomTemplateBody => ({
  name: t.name,
  ...(t.description ? { description: t.description } : {}),
  scopeType: t.scopeType,
  ...(t.scopeId ? { scopeId: t.scopeId } : {}),
  period: t.period,
  sections: t.sections,
});

/** One section of the template: what it is, what it shows and how it is split, with its place in the order. */
function SectionEditor({
  section,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  section: CustomSectionBody;
  index: number;
  count: number;
  errors: Record<string, string>;
  onChange: (s: CustomSectionBody) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const error = (f: string) => errors[`sections.${index}.${f}`];
  const label = `Section ${index + 1}`;
  return (
    <Paper withBorder p="sm" role="group" aria-label={label}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {label}: {KIND_NAMES[section.kind]}
          </Text>
          <Group gap={4}>
            <ActionIcon
              variant="subtle"
              aria-label={`Move section ${index + 1} up`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              aria-label={`Move section ${index + 1} down`}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              ↓
            </ActionIcon>
            <Button size="compact-xs" variant="subtle" color="red" onClick={onRemove}>
              Remove
            </Button>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="Title"
            value={section.title}
            error={error('title')}
            onChange={(e) => onChange({ ...section, title: e.currentTarget.value })}
          />
          {section.kind !== 'text' && (
            <NativeSelect
              label="Shows"
              value={section.measure ?? ''}
              error={error('measure')}
              onChange={(e) =>
                onChange({ ...section, measure: e.currentTarget.value as CustomSectionBody['measure'] })
              }
              data={CUSTOM_MEASURES.map((m) => ({ value: m, label: MEASURE_NAMES[m] }))}
            />
          )}
          {(section.kind === 'table' || section.kind === 'chart') && (
            <NativeSelect
              label="Split"
              value={section.grouping ?? ''}
              error={error('grouping')}
              onChange={(e) =>
                onChange({ ...section, grouping: e.currentTarget.value as CustomSectionBody['grouping'] })
              }
              data={CUSTOM_GROUPINGS.map((g) => ({ value: g, label: GROUPING_NAMES[g] }))}
            />
          )}
        </SimpleGrid>
        {section.kind === 'text' && (
          <Textarea
            label="Text"
            autosize
            minRows={2}
            value={section.text ?? ''}
            error={error('text')}
            onChange={(e) => onChange({ ...section, text: e.currentTarget.value })}
          />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /reports/builder: a company's own report templates. A template is a list of sections (key figures,
 * tables, charts and text) over a scope and a period; it is previewed with today's figures, saved, and
 * built as a PDF, a workbook or a CSV by the same worker as every report.
 */
export function ReportBuilderPage() {
  const { data: saved, error } = useCustomTemplates();
  const { data: portfolios } = usePortfolioChoices();
  const { data: sites } = useSiteChoices();
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const remove = useDeleteTemplate();
  const preview = usePreviewTemplate();
  const generate = useGenerateCustomReport();
  // Templates are the company's: others may build and preview one, but only company users keep it.
  const mayChange = useMayChange(COMPANY_USERS);
  const [editing, setEditing] = useState<string>();
  const [draft, setDraft] = useState<Draft>(() => draftOf(EMPTY));
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [shown, setShown] = useState<{ document: PreviewDocument; startDate: string; endDate: string }>();
  const [format, setFormat] = useState<ReportFormat>('pdf');
  const errors = failure.fields;
  // The templates page links here with the template to open.
  const [search] = useSearchParams();
  const asked = search.get('template');
  const openedAsked = useRef(false);

  const change = (next: Partial<Omit<Draft, 'sections'>>) => setDraft((d) => ({ ...d, ...next }));
  const setSections = (f: (s: KeyedSection[]) => KeyedSection[]) =>
    setDraft((d) => ({ ...d, sections: f(d.sections) }));
  function open(t: CustomTemplateView | undefined) {
    setEditing(t?._id);
    setDraft(draftOf(t ? bodyOf(t) : EMPTY));
    setFailure(NO_FAILURE);
    setStatus(undefined);
    setShown(undefined);
  }
  async function run(what: string, action: () => Promise<void>) {
    setBusy(what);
    setStatus(undefined);
    try {
      await action();
      setFailure(NO_FAILURE);
    } catch (err) {
      setFailure(formFailureOf(err));
    } finally {
      setBusy(undefined);
    }
  }
  const body = (): CustomTemplateBody => ({
    ...draft,
    ...(draft.scopeType === 'company' ? { scopeId: undefined } : {}),
    sections: draft.sections.map(({ key: _key, ...section }) => section),
  });
  const save = () =>
    run('save', async () => {
      const out = editing ? await update(editing, body()) : await create(body());
      setEditing(out._id);
      setStatus(`${out.name} is saved.`);
    });
  const showPreview = () => run('preview', async () => setShown(await preview(body(), {})));
  const build = () =>
    run('generate', async () => {
      if (!editing) return;
      const report = await generate({ reportTemplateId: editing, format });
      setStatus(`${report.name} is queued: it is listed in the report history as it is built.`);
    });

  useEffect(() => {
    const wanted = asked ? saved?.data.find((t) => t._id === asked) : undefined;
    if (!wanted || openedAsked.current) return;
    openedAsked.current = true;
    open(wanted);
  });

  const choices =
    draft.scopeType === 'portfolio'
      ? (portfolios?.data ?? []).map((p) => ({ value: p._id, label: p.name }))
      : (sites?.data ?? []).map((s) => ({ value: s._id, label: s.siteName }));
  const templates = [...(saved?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Report builder</Title>
        <Group>
          <Anchor component={Link} to="/reports">
            Reports
          </Anchor>
          <Anchor component={Link} to="/reports/history">
            History
          </Anchor>
        </Group>
      </Group>
      {error && <ErrorPanel error={error} />}
      <Group gap="xs">
        <Text size="sm">Templates:</Text>
        <Button size="xs" variant={editing ? 'default' : 'filled'} onClick={() => open(undefined)}>
          New template
        </Button>
        {templates.map((t) => (
          <Button
            key={t._id}
            size="xs"
            variant={editing === t._id ? 'filled' : 'default'}
            onClick={() => open(t)}
          >
            {t.name}
          </Button>
        ))}
      </Group>
      <FormPanel
        title={editing ? `Edit ${draft.name || 'template'}` : 'New template'}
        label="Report template"
        failure={failure}
        onSubmit={save}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Name"
            value={draft.name}
            error={errors.name}
            onChange={(e) => change({ name: e.currentTarget.value })}
          />
          <NativeSelect
            label="Period"
            value={draft.period}
            error={errors.period}
            onChange={(e) => change({ period: e.currentTarget.value as CustomTemplateBody['period'] })}
            data={CUSTOM_PERIODS.map((p) => ({ value: p, label: PERIOD_NAMES[p] }))}
          />
        </SimpleGrid>
        <TextInput
          label="Description"
          value={draft.description ?? ''}
          error={errors.description}
          onChange={(e) => change({ description: e.currentTarget.value })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label="Covering"
            value={draft.scopeType}
            error={errors.scopeType}
            onChange={(e) =>
              change({ scopeType: e.currentTarget.value as ReportScopeType, scopeId: undefined })
            }
            data={(['company', 'portfolio', 'asset'] as const).map((s) => ({
              value: s,
              label: SCOPE_LABELS[s],
            }))}
          />
          {draft.scopeType !== 'company' && (
            <NativeSelect
              label={draft.scopeType === 'portfolio' ? 'Portfolio' : 'Site'}
              value={draft.scopeId ?? ''}
              error={errors.scopeId}
              onChange={(e) => change({ scopeId: e.currentTarget.value || undefined })}
              data={[{ value: '', label: 'Choose…' }, ...choices]}
            />
          )}
        </SimpleGrid>
        <Title order={5}>Sections</Title>
        {errors.sections && (
          <Text c="red" size="sm" role="alert">
            {errors.sections}
          </Text>
        )}
        {draft.sections.map((s, i) => (
          <SectionEditor
            key={s.key}
            section={s}
            index={i}
            count={draft.sections.length}
            errors={errors}
            onChange={(next) =>
              setSections((all) => all.map((x, j) => (j === i ? { ...next, key: x.key } : x)))
            }
            onMove={(by) =>
              setSections((all) => {
                const out = [...all];
                const [moved] = out.splice(i, 1);
                if (moved) out.splice(i + by, 0, moved);
                return out;
              })
            }
            onRemove={() => setSections((all) => all.filter((_, j) => j !== i))}
          />
        ))}
        <Group gap="xs">
          <Text size="sm">Add:</Text>
          {(['figures', 'table', 'chart', 'text'] as const).map((k) => (
            <Button
              key={k}
              size="xs"
              variant="light"
              onClick={() => setSections((all) => [...all, keyed(NEW_SECTION[k])])}
            >
              {KIND_NAMES[k]}
            </Button>
          ))}
        </Group>
        <Group>
          <Button variant="default" onClick={showPreview} loading={busy === 'preview'}>
            Preview
          </Button>
          {mayChange && (
            <Button type="submit" loading={busy === 'save'}>
              Save template
            </Button>
          )}
          {editing && (
            <>
              <NativeSelect
                aria-label="Format"
                value={format}
                onChange={(e) => setFormat(e.currentTarget.value as ReportFormat)}
                data={REPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
              />
              <Button onClick={build} loading={busy === 'generate'}>
                Generate
              </Button>
              {mayChange && (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    void run('delete', async () => {
                      await remove(editing);
                      open(undefined);
                    })
                  }
                >
                  Delete template
                </Button>
              )}
            </>
          )}
        </Group>
        {status && (
          <Text size="sm" role="status">
            {status}
          </Text>
        )}
      </FormPanel>
      {shown && <Preview doc={shown.document} startDate={shown.startDate} endDate={shown.endDate} />}
    </Stack>
  );
}
