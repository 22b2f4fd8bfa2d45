import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { InvoiceKey } from '../../../shared/capture/model.ts';
import type { Highlight } from '../../components/document-viewer.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { useMayChange } from '../../lib/may-change.ts';
import {
  type FileLink,
  type InvoiceAccount,
  type InvoiceView,
  useBulkCalls,
  useConfirmInvoice,
  useForceInvoice,
  useInvoice,
  usePreviewLink,
  useRevalidateInvoice,
  usersOf,
  useSummary,
  useUpdateInvoiceValues,
  useUserOptions,
  type ValidationItem,
} from './api.ts';
import { CaptureNotes } from './capture-notes.tsx';
import { InvoiceRates } from './invoice-rates.tsx';
import { InvoiceValuesForm } from './invoice-values-form.tsx';
import { INVOICE_MESSAGES } from './messages.ts';
import { useRateActions } from './rate-actions.ts';
import { InvoiceStatusBadge, ValidationStatusBadge } from './status.tsx';
import { TagField } from './tag-field.tsx';
import { useAction } from './use-action.ts';
import { ValidationBlock } from './validation-block.tsx';
import { cutDisplayName, QUEUE_LABELS, queueOf } from './validation-state.ts';

/** Said in place of the document of an invoice that has none: nothing failed, there is no file. */
const NO_DOCUMENT = 'This invoice has no document: it was imported as data, not captured from a file.';

// The PDF reader is large: it comes in its own chunk, when an invoice page first shows a document.
const DocumentViewer = lazy(() => import('../../components/document-viewer.tsx'));

/**
 * The document's address. Fetched once per invoice rather than through the cache: a fresh signed URL on
 * every live update would reload the document and lose the page shown. An invoice with no stored
 * document (imported as data) has nothing to fetch, so nothing is asked for.
 */
function usePreview(id: string, hasDocument: boolean) {
  const previewLink = usePreviewLink();
  const [link, setLink] = useState<FileLink>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let cancelled = false;
    setLink(undefined);
    setError(undefined);
    if (!hasDocument) return;
    previewLink(id)
      .then((l) => !cancelled && setLink(l))
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
    };
  }, [previewLink, id, hasDocument]);
  return { link, error };
}

function Actions({
  invoice,
  validation,
  dirty,
}: {
  invoice: InvoiceView;
  validation: ValidationItem | undefined;
  dirty: boolean;
}) {
  const navigate = useNavigate();
  const confirmInvoice = useConfirmInvoice();
  const revalidate = useRevalidateInvoice();
  const force = useForceInvoice();
  const { me, company, access } = useSession();
  const users = usersOf(useUserOptions(company._id, access).data);
  const { busy, run } = useAction();
  const id = validation?._id ?? invoice.invoiceValidationId ?? invoice._id;
  const calls = useBulkCalls();
  const [tags, setTags] = useState('');
  const [assignee, setAssignee] = useState(validation?.assignedUserId ?? '');
  useEffect(() => setAssignee(validation?.assignedUserId ?? ''), [validation?.assignedUserId]);
  const people = new Map(users.map((u) => [u.userSub, u.name || u.email || u.userSub]));
  people.set(me.sub, `${me.name ?? me.email ?? 'Me'} (me)`);
  if (validation?.assignedUserId && !people.has(validation.assignedUserId))
    people.set(validation.assignedUserId, 'Someone else');

  const act = async (name: string, action: () => Promise<unknown>, problem: string, done: string) => {
    const result = await run(name, action, { problem, done });
    return result.ok;
  };

  return (
    <Paper withBorder p="sm" aria-label="Invoice actions">
      <Group gap="xs" wrap="wrap" align="end">
        <Button
          size="xs"
          color="teal"
          disabled={invoice.completed || dirty || busy !== undefined}
          loading={busy === 'confirm'}
          title={dirty ? 'Save the values first' : undefined}
          onClick={() =>
            act(
              'confirm',
              () => confirmInvoice(invoice._id),
              INVOICE_MESSAGES.confirmProblem,
              'Invoice confirmed',
            )
          }
        >
          Confirm
        </Button>
        <Button
          size="xs"
          variant="light"
          disabled={busy !== undefined}
          loading={busy === 'revalidate'}
          onClick={() =>
            act(
              'revalidate',
              () => revalidate(id),
              INVOICE_MESSAGES.revalidateProblem,
              'Invoice validated again',
            )
          }
        >
          Re-validate
        </Button>
        <Button
          size="xs"
          variant="light"
          color="green"
          disabled={busy !== undefined || validation?.status === 'passed'}
          loading={busy === 'force'}
          onClick={() => {
            if (!window.confirm('Accept this invoice as passed, whatever its checks found?')) return;
            void act('force', () => force(id), INVOICE_MESSAGES.updateProblem, 'Invoice accepted as passed');
          }}
        >
          Accept as passed
        </Button>
        <Button
          size="xs"
          variant="light"
          color="orange"
          disabled={busy !== undefined || !validation}
          loading={busy === 'hold'}
          onClick={() =>
            act(
              'hold',
              () => calls.hold([id], !validation?.hold),
              INVOICE_MESSAGES.updateProblem,
              validation?.hold ? 'Invoice released' : 'Invoice put on hold',
            )
          }
        >
          {validation?.hold ? 'Release' : 'Hold'}
        </Button>
        <TagField
          label="Add tags"
          value={tags}
          onChange={setTags}
          disabled={busy !== undefined || !validation}
          loading={busy === 'tag'}
          onTag={async (added) => {
            if (await act('tag', () => calls.tag([id], added), INVOICE_MESSAGES.updateProblem, 'Tags added'))
              setTags('');
          }}
        />
        <Group gap={4} align="end">
          <NativeSelect
            size="xs"
            label="Assigned to"
            value={assignee}
            onChange={(e) => setAssignee(e.currentTarget.value)}
            data={[
              { value: '', label: 'Nobody' },
              ...[...people].map(([value, label]) => ({ value, label })),
            ]}
          />
          <Button
            size="xs"
            variant="light"
            disabled={busy !== undefined || !validation || assignee === (validation?.assignedUserId ?? '')}
            loading={busy === 'assign'}
            onClick={() =>
              act(
                'assign',
                () => calls.assign([id], assignee || null),
                INVOICE_MESSAGES.assignProblem,
                'Assigned',
              )
            }
          >
            Assign
          </Button>
        </Group>
        <Button
          size="xs"
          variant="light"
          color="red"
          disabled={busy !== undefined}
          loading={busy === 'delete'}
          onClick={async () => {
            if (!window.confirm('Delete this invoice?')) return;
            if (
              await act('delete', () => calls.remove([id]), INVOICE_MESSAGES.deleteProblem, 'Invoice deleted')
            )
              navigate(`/invoice-validation/${(validation && queueOf(validation)) ?? 'failed'}`);
          }}
        >
          Delete
        </Button>
      </Group>
    </Paper>
  );
}

function Header({ invoice, validation }: { invoice: InvoiceView; validation: ValidationItem | undefined }) {
  const queue = validation ? queueOf(validation) : undefined;
  const name = validation?.displayName || invoice.invoiceNumber || invoice.fileName || 'Invoice';
  return (
    <Stack gap={6}>
      <Group gap={6} component="nav" aria-label="Breadcrumbs">
        <Anchor component={Link} to={`/invoice-validation/${queue ?? 'failed'}`} size="sm">
          Bill Validation{queue ? `: ${QUEUE_LABELS[queue]}` : ''}
        </Anchor>
      </Group>
      <Group gap="sm" align="center">
        <Title order={2} style={{ wordBreak: 'break-word' }}>
          {cutDisplayName(name)}
        </Title>
        {validation && <ValidationStatusBadge status={validation.status} />}
        <InvoiceStatusBadge status={invoice.status} />
        {invoice.isCreditNote && <Badge color="violet">Credit note</Badge>}
        {validation?.hold && (
          <Badge color="orange" variant="outline">
            On hold
          </Badge>
        )}
        {(validation?.tags ?? []).map((t) => (
          <Badge key={t} variant="light" color="gray">
            {t}
          </Badge>
        ))}
      </Group>
      {invoice.fileName && (
        <Text size="sm" c="dimmed">
          {invoice.fileName}
        </Text>
      )}
      {invoice.error && (
        <Text size="sm" c="red">
          {invoice.error.message}
        </Text>
      )}
    </Stack>
  );
}

function DocumentPane({
  invoice,
  page,
  onPage,
  highlight,
}: {
  invoice: InvoiceView;
  page: number;
  onPage: (p: number) => void;
  highlight: Highlight | undefined;
}) {
  const hasDocument = typeof invoice.key === 'string' && invoice.key !== '';
  const { link, error } = usePreview(invoice._id, hasDocument);
  return (
    <Paper
      withBorder
      p="sm"
      aria-label="Document"
      style={{
        position: 'sticky',
        top: 'calc(var(--vf-header-height, 0px) + 8px)',
        // A page taller than the window scrolls within the pane, so the values stay beside it.
        maxHeight: 'calc(100vh - var(--vf-header-height, 0px) - 16px)',
        overflowY: 'auto',
      }}
    >
      {!hasDocument ? (
        <Text c="dimmed" ta="center" py="xl">
          {NO_DOCUMENT}
        </Text>
      ) : error ? (
        <ErrorPanel error={error} title="The document could not be fetched" />
      ) : link ? (
        <Suspense fallback={<LoadingPanel label="Loading the document viewer" />}>
          <DocumentViewer
            url={link.url}
            fileName={link.name ?? invoice.fileName ?? 'invoice.pdf'}
            page={page}
            onPage={onPage}
            highlight={highlight}
          />
        </Suspense>
      ) : (
        <LoadingPanel label="Loading the document" />
      )}
    </Paper>
  );
}

function InvoiceWorkspace({
  invoice,
  validation,
  account,
}: {
  invoice: InvoiceView;
  validation: ValidationItem | undefined;
  account: InvoiceAccount | undefined;
}) {
  const updateValues = useUpdateInvoiceValues();
  const { busy, run } = useAction();
  const firstPage = invoice.results?.pages?.[0] ?? 1;
  const [page, setPage] = useState(firstPage);
  const [focused, setFocused] = useState<InvoiceKey>();
  const [dirty, setDirty] = useState(false);
  const read = focused ? invoice.results?.values?.[focused] : undefined;
  const highlight: Highlight | undefined =
    read?.bbox && read.page ? { page: read.page, bbox: read.bbox, label: focused as string } : undefined;

  const focus = (key: InvoiceKey) => {
    setFocused(key);
    const at = invoice.results?.values?.[key]?.page;
    if (at) setPage(at);
  };

  async function saveValues(values: Record<string, unknown>) {
    const result = await run('values', () => updateValues(invoice._id, { values }), {
      problem: INVOICE_MESSAGES.updateProblem,
      done: 'Values saved',
    });
    return result.ok ? ({ ok: true } as const) : ({ ok: false, error: result.error } as const);
  }
  const { addRate, deleteRate } = useRateActions(invoice._id, run);
  async function linkAccount(accountId: string) {
    // Saved with the values' call, which also sends the invoice to be validated again.
    await run('link', () => updateValues(invoice._id, { values: {}, accountId }), {
      problem: INVOICE_MESSAGES.updateProblem,
      done: 'Account linked; the invoice is being validated again',
    });
  }

  const netTotal = typeof invoice.values?.netTotal === 'number' ? invoice.values.netTotal : undefined;
  // Staff looking into another company read its invoices; the API refuses their changes.
  const mayChange = useMayChange();
  return (
    <Stack>
      {mayChange && <Actions invoice={invoice} validation={validation} dirty={dirty} />}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <div>
          <DocumentPane invoice={invoice} page={page} onPage={setPage} highlight={highlight} />
        </div>
        <Stack>
          <ValidationBlock
            invoice={invoice}
            validation={validation}
            account={account}
            busy={busy !== undefined}
            onLink={mayChange ? linkAccount : undefined}
          />
          <CaptureNotes invoice={invoice} />
          <InvoiceValuesForm
            invoice={invoice}
            focused={focused}
            onFocus={focus}
            onSave={saveValues}
            saving={busy === 'values'}
            onDirty={setDirty}
            readOnly={!mayChange}
          />
          <InvoiceRates
            rates={invoice.rates ?? []}
            netTotal={netTotal}
            locked={invoice.completed === true || !mayChange}
            busy={busy === 'rates'}
            onAdd={addRate}
            onDelete={deleteRate}
          />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

/** /invoice-validation/{id}: the document beside its values, rates and validation, with every action. */
export function InvoicePage() {
  const { id } = useParams();
  const invoice = useInvoice(id);
  const summary = useSummary(id);
  if (invoice.isLoading) return <LoadingPanel />;
  if (invoice.error || !invoice.data)
    return (
      <ErrorPanel
        error={invoice.error ?? new Error('Invoice not found')}
        title={INVOICE_MESSAGES.getProblem}
      />
    );
  const validation = summary.data?.validation;
  return (
    <Stack>
      <Header invoice={invoice.data} validation={validation} />
      <InvoiceWorkspace
        key={invoice.data._id}
        invoice={invoice.data}
        validation={validation}
        account={summary.data?.account}
      />
    </Stack>
  );
}
