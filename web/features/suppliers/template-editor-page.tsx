import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Template, TemplateBound } from '../../../shared/capture/model.ts';
import { UTILITY_TYPE_OPTIONS } from '../../../shared/data/utility-types.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useRevalidate } from '../../lib/endpoint.ts';
import type { Supplier } from './api.ts';
import { SupplierLayout } from './supplier-layout.tsx';
import {
  type InvoicePreview,
  isTemplateKey,
  problemOf,
  shownValue,
  TEMPLATE_MESSAGES,
  useCreateTemplate,
  useDeleteTemplate,
  useInvoiceKeys,
  useInvoicePreviewJob,
  useSetBounds,
  useSetTemplateStatus,
  useStartPreview,
  useSupplierTemplate,
} from './template-api.ts';
import { BoundsPanel, SupplierRulesPanel, VersionsPanel } from './template-rules.tsx';
import { SamplePreview, SampleUpload } from './template-sample.tsx';
import { RatesPanel, ValuesPanel } from './template-values.tsx';

const STATUS_LOOKS: Record<Template['status'], { label: string; color: string }> = {
  preupload: { label: 'Awaiting sample', color: 'gray' },
  uploaded: { label: 'In progress', color: 'blue' },
  ready: { label: 'Ready', color: 'green' },
};

/**
 * The extraction preview: the sample is analysed once (POST /templates/{id}/preview), then the template as
 * it is now is applied to that analysis after every change, which takes milliseconds.
 */
function useInvoicePreview(template: Template) {
  const startPreview = useStartPreview();
  const [job, setJob] = useState<{ jobId?: string; problem?: string; attempt: number }>({ attempt: 0 });
  const { _id: templateId, sampleKey, supplierId } = template;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry is a new attempt of the same sample.
  useEffect(() => {
    if (!sampleKey) return;
    let live = true;
    setJob((j) => ({ attempt: j.attempt }));
    startPreview(templateId).then(
      (started) => live && setJob((j) => ({ ...j, jobId: started.jobId })),
      (error: unknown) =>
        live && setJob((j) => ({ ...j, problem: problemOf(error, TEMPLATE_MESSAGES.analysis) })),
    );
    return () => {
      live = false;
    };
  }, [startPreview, templateId, sampleKey, job.attempt]);

  const key = job.jobId
    ? `/suppliers/${supplierId}/invoice-preview?templateId=${templateId}&jobId=${job.jobId}&v=${encodeURIComponent(template.updatedAt ?? '')}`
    : null;
  const preview = useInvoicePreviewJob(key);
  const retry = useCallback(() => setJob((j) => ({ attempt: j.attempt + 1 })), []);
  const problem =
    job.problem ??
    (preview.error ? problemOf(preview.error, TEMPLATE_MESSAGES.analysis) : undefined) ??
    (preview.data?.status === 'failed' ? (preview.data.error ?? TEMPLATE_MESSAGES.analysis) : undefined);
  return { preview: preview.data, problem, loading: !problem && preview.data?.status !== 'succeeded', retry };
}

function ExtractionPanel({
  template,
  preview,
  problem,
  loading,
  retry,
}: {
  template: Template;
  preview: InvoicePreview | undefined;
  problem?: string;
  loading: boolean;
  retry: () => void;
}) {
  const { data: keys } = useInvoiceKeys();
  if (problem)
    return (
      <Stack gap="xs">
        <Alert color="red" role="alert" title="No extraction preview">
          {problem}
        </Alert>
        <Group>
          <Button variant="light" size="compact-sm" onClick={retry}>
            Try again
          </Button>
        </Group>
      </Stack>
    );
  const results = preview?.results;
  if (loading || !results) return <LoadingPanel label="Analysing the sample" />;
  const name = (key: string) => keys?.data.find((k) => k.key === key)?.name ?? key;
  const version = template.versions.find((v) => v._id === results.versionId)?.name;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        What this template reads from the sample: {results.pageCount} page{results.pageCount === 1 ? '' : 's'}
        {preview?.ocr ? ', read by OCR' : ''}
        {version ? `, version ${version}` : ''}.
      </Text>
      {results.supplierRules.length === 0 ? (
        <Alert color="yellow">
          Add a supplier rule: without one the template cannot tell its invoices apart.
        </Alert>
      ) : (
        <Alert color={results.supplierMatched ? 'green' : 'yellow'}>
          {results.supplierMatched
            ? 'The supplier rules all hold on the sample.'
            : `Supplier rules that do not hold: ${results.supplierRules
                .filter((r) => !r.holds)
                .map((r) => `“${r.rule.value}”`)
                .join(', ')}.`}
        </Alert>
      )}
      {results.invoices.map((invoice) => {
        const values = Object.entries(invoice.values);
        return (
          <Stack key={invoice.index} gap={4}>
            {results.invoices.length > 1 && (
              <Text size="sm" fw={500}>
                Invoice {invoice.index + 1} (pages {invoice.pages.join(', ')})
              </Text>
            )}
            {values.length === 0 && invoice.rates.length === 0 ? (
              <EmptyPanel>Nothing read yet: add values to read from the bounds.</EmptyPanel>
            ) : (
              <Table aria-label="Extraction preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Key</Table.Th>
                    <Table.Th>Value</Table.Th>
                    <Table.Th>Text on the page</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {values.map(([key, v]) => (
                    <Table.Tr key={key}>
                      <Table.Td>{name(key)}</Table.Td>
                      <Table.Td fw={500}>{shownValue(v)}</Table.Td>
                      <Table.Td c="dimmed">{v?.text ?? ''}</Table.Td>
                    </Table.Tr>
                  ))}
                  {invoice.rates.map((r) => (
                    <Table.Tr key={r._id}>
                      <Table.Td>Rate: {r.kind}</Table.Td>
                      <Table.Td fw={500}>{r.amount ?? '—'}</Table.Td>
                      <Table.Td c="dimmed">
                        {[r.description, r.units, r.unit, r.unitRate]
                          .filter((x) => x !== undefined)
                          .join(' · ')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}

function Editor({ template, refresh }: { template: Template; refresh: () => Promise<unknown> }) {
  const setBounds = useSetBounds(template._id);
  const setTemplateStatus = useSetTemplateStatus();
  const deleteTemplate = useDeleteTemplate();
  const [versionId, setVersionId] = useState(template.versions[0]?._id ?? '');
  const [tab, setTab] = useState<string | null>('values');
  const { preview, problem, loading, retry } = useInvoicePreview(template);
  const version = template.versions.some((v) => v._id === versionId)
    ? versionId
    : (template.versions[0]?._id ?? '');

  async function saveBound(bound: Omit<TemplateBound, '_id'>): Promise<string | undefined> {
    try {
      await setBounds([...template.bounds, bound]);
      return undefined;
    } catch (error) {
      return problemOf(error, TEMPLATE_MESSAGES.bounds);
    }
  }

  async function setStatus(status: Template['status']) {
    try {
      await setTemplateStatus(template._id, status);
    } catch (error) {
      showToast(problemOf(error, TEMPLATE_MESSAGES.update), 'error');
    }
  }

  async function remove() {
    if (!window.confirm('Delete this template? Invoices of this supplier will no longer be read with it.'))
      return;
    try {
      await deleteTemplate(template._id);
    } catch (error) {
      showToast(problemOf(error, TEMPLATE_MESSAGES.remove), 'error');
    }
  }

  const look = STATUS_LOOKS[template.status];
  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={4}>{template.name ?? 'Template'}</Title>
          <Badge color={look.color} variant="light" data-testid="template-status">
            {look.label}
          </Badge>
          {template.versions.length > 1 && (
            <NativeSelect
              aria-label="Version"
              size="xs"
              value={version}
              data={template.versions.map((v) => ({ value: v._id, label: v.name }))}
              onChange={(e) => setVersionId(e.currentTarget.value)}
            />
          )}
        </Group>
        <Group gap="xs">
          {template.status === 'uploaded' && <Button onClick={() => setStatus('ready')}>Mark ready</Button>}
          {template.status === 'ready' && (
            <Button variant="light" onClick={() => setStatus('uploaded')}>
              Mark not ready
            </Button>
          )}
          <Button variant="subtle" color="red" onClick={remove}>
            Delete template
          </Button>
        </Group>
      </Group>
      {!template.sampleKey ? (
        <Paper withBorder p="md">
          <Stack>
            <Text>
              Upload a sample invoice of this supplier as a PDF. You then draw the template's bounds on it and
              see what it reads.
            </Text>
            <SampleUpload template={template} onUploaded={refresh} />
          </Stack>
        </Paper>
      ) : (
        // The sample beside the lists where there is room for both, above them where there is not.
        <Group align="flex-start" gap="md" wrap="wrap">
          <Stack gap="xs" style={{ flex: '3 1 560px', minWidth: 0 }}>
            <SamplePreview
              template={template}
              versionId={version}
              pages={preview?.status === 'succeeded' ? preview.pages : undefined}
              onSaveBound={saveBound}
            />
            <SampleUpload template={template} onUploaded={refresh} label="Replace sample" />
          </Stack>
          <Tabs value={tab} onChange={setTab} keepMounted={false} style={{ flex: '2 1 420px', minWidth: 0 }}>
            <Tabs.List>
              <Tabs.Tab value="values">Values</Tabs.Tab>
              <Tabs.Tab value="rates">Rates</Tabs.Tab>
              <Tabs.Tab value="bounds">Bounds</Tabs.Tab>
              <Tabs.Tab value="supplier-rules">Supplier rules</Tabs.Tab>
              <Tabs.Tab value="versions">Versions</Tabs.Tab>
              <Tabs.Tab value="preview">Extraction</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="values" pt="sm">
              <ValuesPanel template={template} versionId={version} refresh={refresh} />
            </Tabs.Panel>
            <Tabs.Panel value="rates" pt="sm">
              <RatesPanel template={template} versionId={version} refresh={refresh} />
            </Tabs.Panel>
            <Tabs.Panel value="bounds" pt="sm">
              <BoundsPanel template={template} versionId={version} refresh={refresh} />
            </Tabs.Panel>
            <Tabs.Panel value="supplier-rules" pt="sm">
              <SupplierRulesPanel template={template} refresh={refresh} />
            </Tabs.Panel>
            <Tabs.Panel value="versions" pt="sm">
              <VersionsPanel template={template} refresh={refresh} />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="sm">
              <ExtractionPanel
                template={template}
                preview={preview}
                problem={problem}
                loading={loading}
                retry={retry}
              />
            </Tabs.Panel>
          </Tabs>
        </Group>
      )}
    </Stack>
  );
}

function TemplateOf({ supplier, utility }: { supplier: Supplier; utility: UtilityType }) {
  const createTemplate = useCreateTemplate();
  const refresh = useRevalidate();
  const { data, error, isLoading } = useSupplierTemplate(supplier._id, utility);
  const [creating, setCreating] = useState(false);
  const template = data?.data[0];

  async function create() {
    setCreating(true);
    try {
      await createTemplate({
        supplierId: supplier._id,
        type: utility,
        name: `${supplier.name} ${utilityName(utility).toLowerCase()}`,
      });
    } catch (err) {
      showToast(problemOf(err, TEMPLATE_MESSAGES.create), 'error');
    } finally {
      setCreating(false);
    }
  }

  if (isLoading) return <LoadingPanel />;
  if (error) return <ErrorPanel error={error} title={TEMPLATE_MESSAGES.get} />;
  if (!template)
    return (
      <Paper withBorder p="md">
        <Stack align="flex-start">
          <Text>
            {supplier.name} has no {utilityName(utility).toLowerCase()} template yet. Its invoices are read
            without one.
          </Text>
          <Button onClick={create} loading={creating}>
            Create template
          </Button>
        </Stack>
      </Paper>
    );
  return <Editor key={template._id} template={template} refresh={() => refresh(isTemplateKey)} />;
}

const utilityName = (u: string) => UTILITY_TYPE_OPTIONS.data.find((o) => o.value === u)?.name ?? u;

/** /suppliers/{id}/templates/{utility}: the supplier's invoice template for one utility. */
export function SupplierTemplatesPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const utility = (location.pathname.split('/').filter(Boolean).at(-1) ?? 'electricity') as UtilityType;
  return (
    <SupplierLayout tab="templates">
      {(supplier) => (
        <Stack>
          <SegmentedControl
            aria-label="Utility"
            value={utility}
            data={UTILITY_TYPE_OPTIONS.data.map((o) => ({ value: o.value, label: o.name }))}
            onChange={(next) => navigate(`/suppliers/${supplier._id}/templates/${next}`)}
            style={{ alignSelf: 'flex-start' }}
          />
          <TemplateOf key={utility} supplier={supplier} utility={utility} />
        </Stack>
      )}
    </SupplierLayout>
  );
}
