import { Anchor, Badge, Button, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { canChange, canUseRoute } from '../../../shared/access/route-access.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { routeByPath } from '../../app/routes.ts';
import { AccountLayout } from '../../components/account-frame.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { mayChangeItem } from '../../lib/may-change.ts';
import {
  type InvoiceView,
  useAccountInvoices,
  useConvertInvoice,
  useDeleteAccountInvoice,
  useDownloadFile,
  useRefreshInvoice,
  useRestoreInvoice,
  useStampInvoice,
} from './api.ts';
import { DownloadButton } from './download-button.tsx';
import { InvoiceRates } from './invoice-rates.tsx';
import { money } from './invoice-values.ts';
import { ManualUploadForm } from './manual-upload-form.tsx';
import { INVOICE_MESSAGES } from './messages.ts';
import { useRateActions } from './rate-actions.ts';
import { InvoiceStatusBadge } from './status.tsx';
import { useAction } from './use-action.ts';

type Kind = 'invoices' | 'credit-notes';

/** An account's invoice as the list answers it: stamping keeps a copy and says when it was made. */
interface AccountInvoice extends InvoiceView {
  stampedAt?: string;
}

/** The table's columns, so a row's charge lines can span it. */
const COLUMNS = 7;

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function periodOf(inv: AccountInvoice): string {
  const start = inv.invoiceStartDate ?? str(inv.values?.startDate);
  const end = inv.invoiceEndDate ?? str(inv.values?.endDate);
  if (!start && !end) return '';
  return `${formatDate(start)} – ${formatDate(end)}`;
}

function consumptionOf(inv: InvoiceView): string {
  const amount = num(inv.values?.consumption);
  if (amount === undefined) return '';
  const unit = str(inv.values?.consumptionUnit) ?? str(inv.values?.unit) ?? '';
  return `${formatNumber(amount, { maximumFractionDigits: 2 })} ${unit}`.trim();
}

function Row({
  account,
  invoice,
  kind,
  mayEdit,
  mayValidate,
}: {
  account: AccountView;
  invoice: AccountInvoice;
  kind: Kind;
  mayEdit: boolean;
  mayValidate: boolean;
}) {
  const refreshInvoice = useRefreshInvoice();
  const convert = useConvertInvoice(account._id);
  const stamp = useStampInvoice(account._id);
  const remove = useDeleteAccountInvoice(account._id);
  const restore = useRestoreInvoice();
  const downloadFile = useDownloadFile();
  const { busy, run } = useAction();
  const base = `/accounts/${account._id}`;
  const name = invoice.invoiceNumber ?? str(invoice.values?.invoiceNumber) ?? invoice.fileName ?? 'Invoice';
  /** A button that runs one call on the invoice and then reloads the list. */
  const action = (
    text: string,
    label: string,
    call: () => Promise<unknown>,
    how: { problem: string; done: string; variant?: 'light'; color?: 'red'; confirm?: string },
  ) => (
    <Button
      size="compact-xs"
      variant={how.variant ?? 'subtle'}
      color={how.color}
      disabled={busy !== undefined}
      onClick={async () => {
        if (how.confirm !== undefined && !window.confirm(how.confirm)) return;
        await run(label, call, { problem: how.problem, done: how.done });
      }}
    >
      {text}
    </Button>
  );
  const [showRates, setShowRates] = useState(false);
  const download = (stamped: boolean) =>
    run(
      'download',
      () =>
        downloadFile(
          `${
            kind === 'credit-notes'
              ? `${base}/credit-notes/${invoice._id}/download`
              : `${base}/invoice/${invoice._id}/download`
          }${stamped ? '?stamped=true' : ''}`,
        ),
      { problem: INVOICE_MESSAGES.getProblem },
    );
  const { addRate, deleteRate } = useRateActions(invoice._id, run);
  const deleted = invoice.deleted === true;
  const rates = invoice.rates ?? [];
  const netTotal = num(invoice.values?.netTotal);
  return (
    <>
      <Table.Tr style={deleted ? { opacity: 0.6 } : undefined}>
        <Table.Td>
          <Text size="sm">{name}</Text>
          {invoice.fileName && name !== invoice.fileName && (
            <Text size="xs" c="dimmed">
              {invoice.fileName}
            </Text>
          )}
        </Table.Td>
        <Table.Td>{periodOf(invoice)}</Table.Td>
        <Table.Td>{formatDate(str(invoice.values?.invoiceDate))}</Table.Td>
        <Table.Td ta="right">{consumptionOf(invoice)}</Table.Td>
        <Table.Td ta="right">
          {money(invoice.grossTotal ?? num(invoice.values?.grossTotal) ?? num(invoice.values?.totalAmount))}
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            <InvoiceStatusBadge status={invoice.status} />
            {deleted && (
              <Badge color="red" variant="outline" size="sm">
                Deleted
              </Badge>
            )}
            {invoice.stampedAt && (
              <Badge
                color="violet"
                variant="outline"
                size="sm"
                title={`Stamped on ${formatDate(invoice.stampedAt)}`}
              >
                Stamped
              </Badge>
            )}
          </Group>
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap" justify="flex-end">
            {invoice.key ? (
              <DownloadButton name={name} disabled={busy !== undefined} onClick={() => download(false)} />
            ) : (
              // Bills imported as data have no file: offering one would only answer "no document".
              <Text size="xs" c="dimmed" title="Imported as data, without a document">
                No file
              </Text>
            )}
            {invoice.stampedAt && (
              <Button
                size="compact-xs"
                variant="light"
                color="violet"
                disabled={busy !== undefined}
                onClick={() => download(true)}
                aria-label={`Download the stamped copy of ${name}`}
              >
                Stamped copy
              </Button>
            )}
            <Button
              size="compact-xs"
              variant={showRates ? 'light' : 'subtle'}
              onClick={() => setShowRates((v) => !v)}
              aria-expanded={showRates}
              aria-label={`Rates of ${name}`}
            >
              Rates ({rates.length})
            </Button>
            {mayValidate && !deleted && (
              <Button
                size="compact-xs"
                variant="subtle"
                component={Link}
                to={`/invoice-validation/${invoice.invoiceValidationId ?? invoice._id}`}
              >
                Open
              </Button>
            )}
            {mayEdit && !deleted && (
              <>
                {action('Refresh', 'refresh', () => refreshInvoice(invoice._id), {
                  problem: INVOICE_MESSAGES.getProblem,
                  done: 'Invoice refreshed',
                })}
                {kind === 'invoices' ? (
                  <>
                    {action('To credit note', 'convert', () => convert(invoice._id, kind), {
                      problem: INVOICE_MESSAGES.updateProblem,
                      done: 'Converted to a credit note',
                    })}
                    {action(
                      invoice.stampedAt ? 'Stamp again' : 'Stamp',
                      'stamp',
                      () => stamp(invoice._id, kind),
                      { problem: INVOICE_MESSAGES.updateProblem, done: 'Invoice stamped' },
                    )}
                  </>
                ) : (
                  <>
                    {action('To invoice', 'convert', () => convert(invoice._id, kind), {
                      problem: INVOICE_MESSAGES.updateProblem,
                      done: 'Converted to an invoice',
                    })}
                    {action(
                      invoice.stampedAt ? 'Stamp again' : 'Stamp',
                      'stamp',
                      () => stamp(invoice._id, kind),
                      { problem: INVOICE_MESSAGES.updateProblem, done: 'Credit note stamped' },
                    )}
                  </>
                )}
                {action('Delete', 'delete', () => remove(invoice._id), {
                  problem: INVOICE_MESSAGES.deleteProblem,
                  done: 'Deleted',
                  color: 'red',
                  confirm: `Delete ${name}? It can be restored afterwards.`,
                })}
              </>
            )}
            {mayEdit &&
              deleted &&
              action('Restore', 'restore', () => restore(invoice._id), {
                problem: INVOICE_MESSAGES.updateProblem,
                done: 'Restored',
                variant: 'light',
              })}
          </Group>
        </Table.Td>
      </Table.Tr>
      {showRates && (
        <Table.Tr>
          <Table.Td colSpan={COLUMNS}>
            <InvoiceRates
              rates={rates}
              netTotal={netTotal}
              // Only the bill validation roles change charge lines, and never on a confirmed or deleted bill.
              locked={!mayEdit || deleted || invoice.completed === true}
              busy={busy === 'rates'}
              onAdd={addRate}
              onDelete={deleteRate}
            />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

function AccountInvoices({ account, kind }: { account: AccountView; kind: Kind }) {
  const { access } = useSession();
  const [withDeleted, setWithDeleted] = useState(false);
  const { data, error, isLoading } = useAccountInvoices<AccountInvoice>(account._id, kind, withDeleted);
  const validationRoute = routeByPath('/invoice-validation/:id');
  const mayValidate = validationRoute !== undefined && canUseRoute(validationRoute.permission, access);
  // Changing an account's invoices takes the bill validation permissions, as the API's routes do, and
  // write access to the meter: the API judges an invoice by the account it is filed on.
  const mayEdit =
    validationRoute !== undefined &&
    canChange(validationRoute.permission, access) &&
    mayChangeItem(access, { accountId: account._id, assetId: account.assetId, entityId: account.entityId });
  const uploadRoute = routeByPath('/invoices/upload');
  const mayUpload = uploadRoute !== undefined && canChange(uploadRoute.permission, access);
  const [manual, setManual] = useState(false);
  const items = [...(data?.data ?? [])].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  const label = kind === 'credit-notes' ? 'Credit notes' : 'Invoices';
  // A bill typed in by hand is filed on this account, so it takes both upload and edit rights.
  const mayUploadHere = kind === 'invoices' && mayUpload && mayEdit && account.deleted !== true;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>{label}</Title>
        {mayEdit && (
          <Switch
            label="Show deleted"
            checked={withDeleted}
            onChange={(e) => setWithDeleted(e.currentTarget.checked)}
          />
        )}
      </Group>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title={INVOICE_MESSAGES.getProblem} />}
      {data && items.length === 0 && (
        <EmptyPanel>{kind === 'credit-notes' ? 'No credit notes yet.' : 'No invoices yet.'}</EmptyPanel>
      )}
      {items.length > 0 && (
        <Paper withBorder style={{ overflowX: 'auto' }}>
          <Table aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{kind === 'credit-notes' ? 'Credit note' : 'Invoice'}</Table.Th>
                <Table.Th>Period</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th ta="right">Consumption</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((inv) => (
                <Row
                  key={inv._id}
                  account={account}
                  invoice={inv}
                  kind={kind}
                  mayEdit={mayEdit}
                  mayValidate={mayValidate}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {manual && <ManualUploadForm accountId={account._id} onDone={() => setManual(false)} />}
      <Group gap="md">
        {mayUpload && (
          <Anchor component={Link} to="/invoices/upload" size="sm">
            Upload invoices
          </Anchor>
        )}
        {mayUploadHere && !manual && (
          <Button size="xs" variant="light" onClick={() => setManual(true)}>
            Upload an invoice by hand
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/invoices */
export function AccountInvoicesPage() {
  return (
    <AccountLayout tab="invoices">
      {(account) => <AccountInvoices account={account} kind="invoices" />}
    </AccountLayout>
  );
}

/** /assets/{id}/accounts/{accountId}/credit-notes */
export function AccountCreditNotesPage() {
  return (
    <AccountLayout tab="credit-notes">
      {(account) => <AccountInvoices account={account} kind="credit-notes" />}
    </AccountLayout>
  );
}
