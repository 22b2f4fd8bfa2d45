import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type {
  ProvenanceBill,
  ProvenanceConfirmation,
  ProvenanceFactor,
  ProvenancePosition,
} from '../../../shared/schemas/provenance.ts';
import type { Highlight } from '../../components/document-viewer.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { useBillDocument } from './provenance-api.ts';
import { type Shown, showMoney, showShare } from './provenance-figures.ts';
import { PartsTable } from './provenance-parts.tsx';

// PDF.js and the viewer load only when a bill's document is opened.
const DocumentViewer = lazy(() => import('../../components/document-viewer.tsx'));

const LABELS: Record<keyof ProvenanceBill['positions'], string> = {
  grossTotal: 'Total',
  netTotal: 'Net total',
  consumption: 'Consumption',
};

/** The value to outline: the total, else the net total, else the consumption, whichever capture placed. */
function focusOf(
  bill: ProvenanceBill,
): { key: keyof ProvenanceBill['positions']; at: ProvenancePosition } | undefined {
  for (const key of ['grossTotal', 'netTotal', 'consumption'] as const) {
    const at = bill.positions[key];
    if (at) return { key, at };
  }
  return undefined;
}

function Confirmation({ c }: { c: ProvenanceConfirmation }) {
  const who = c.by?.name ?? c.by?.sub;
  const when = c.at ? ` on ${formatDateTime(c.at)}` : '';
  const text =
    c.how === 'confirmed'
      ? `Confirmed by ${who ?? 'someone no longer in the company'}${when}`
      : c.how === 'imported'
        ? `Imported as data${who ? ` by ${who}` : ''}${when}, not confirmed from a document`
        : 'Not confirmed yet: the bill awaits review';
  return <Text data-testid="provenance-confirmation">{text}</Text>;
}

function Factor({ f }: { f: ProvenanceFactor }) {
  return (
    <Text size="sm" data-testid="provenance-factor">
      {formatNumber(f.value, { maximumFractionDigits: 5 })} kgCO₂e per {f.unit} ({f.activity}, scope {f.scope}
      , {f.year}) · {f.set} · version <strong>{f.version}</strong>
      {f.note && (
        <Text component="span" c="orange.8" data-testid="provenance-factor-note">
          {' '}
          · {f.note}
        </Text>
      )}
    </Text>
  );
}

function BillDocument({ bill }: { bill: ProvenanceBill }) {
  const focus = focusOf(bill);
  const [page, setPage] = useState(focus?.at.page ?? 1);
  const { data: link, error, isLoading } = useBillDocument(bill.invoiceId);
  const highlight: Highlight | undefined = focus
    ? { page: focus.at.page, bbox: focus.at.bbox, label: LABELS[focus.key] }
    : undefined;
  return (
    <Paper withBorder p="sm" aria-label="The bill's document">
      <Text size="sm" mb="xs">
        {focus
          ? `Outlined: the ${LABELS[focus.key].toLowerCase()} as capture read it${focus.at.text ? ` (${focus.at.text})` : ''}, page ${focus.at.page}.`
          : 'Capture did not keep where the figures were read on this bill.'}
      </Text>
      {error ? (
        <ErrorPanel error={error} title="The document could not be fetched" />
      ) : isLoading || !link ? (
        <LoadingPanel label="Loading the document" />
      ) : (
        <Suspense fallback={<LoadingPanel label="Loading the document viewer" />}>
          <DocumentViewer
            url={link.url}
            fileName={link.name ?? bill.fileName ?? 'invoice.pdf'}
            page={page}
            onPage={setPage}
            highlight={highlight}
          />
        </Suspense>
      )}
    </Paper>
  );
}

/** One bill: what it says, the part of it the figure takes and why, and the way to its document. */
export function BillView({ bill }: { bill: ProvenanceBill }) {
  const [viewing, setViewing] = useState(false);
  const months = bill.months.map((m) => ({
    key: m.month,
    label: m.month,
    note: m.factorVersion ? `factors ${m.factorVersion}` : undefined,
    shown: {
      consumption: { value: m.consumption, unit: bill.part.unit },
      cost: m.cost,
      emissionsKg: m.emissionsKg,
    } satisfies Shown,
  }));
  return (
    <Stack gap="sm">
      <Title order={4}>Bill {bill.invoiceNumber ?? bill.invoiceId}</Title>
      <Text size="sm">
        {formatDate(bill.period.start)} to {formatDate(bill.period.end)} ({bill.days} days). The window holds{' '}
        {bill.daysInWindow} of them: <strong data-testid="provenance-share">{showShare(bill.share)}</strong>{' '}
        of the bill, shared by days.
      </Text>
      <Text size="sm">
        The whole bill:{' '}
        {bill.bill.consumption !== undefined
          ? `${formatNumber(bill.bill.consumption)} ${bill.bill.unit ?? ''}`
          : 'no consumption read'}
        {bill.bill.netTotal !== undefined ? `, ${showMoney(bill.bill.netTotal)} net` : ''}
        {bill.bill.grossTotal !== undefined ? `, ${showMoney(bill.bill.grossTotal)} with VAT` : ''}.
      </Text>
      <PartsTable
        label="The bill's part, month by month"
        parts={months}
        figure={{
          consumption: { value: bill.part.consumption, unit: bill.part.unit },
          cost: bill.part.cost,
          emissionsKg: bill.part.emissionsKg,
        }}
        figureLabel="The bill's part of the figure"
      />
      <Stack gap={2}>
        <Text fw={600} size="sm">
          Emission factor
        </Text>
        {bill.factors.length === 0 ? (
          <Text size="sm" c="dimmed">
            No emission factor applies to this utility.
          </Text>
        ) : (
          bill.factors.map((f) => <Factor key={`${f.version}-${f.activity}`} f={f} />)
        )}
      </Stack>
      <Confirmation c={bill.confirmation} />
      {bill.readings.length > 0 && (
        <Table aria-label="Meter reads on the bill" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Meter</Table.Th>
              <Table.Th ta="right">Opening read</Table.Th>
              <Table.Th ta="right">Closing read</Table.Th>
              <Table.Th>Read</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {bill.readings.map((r, i) => (
              // Reads have no id of their own; their order on the bill is theirs.
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
              <Table.Tr key={i}>
                <Table.Td>{r.meterSerialNumber ?? ''}</Table.Td>
                <Table.Td ta="right">{formatNumber(r.openingRead)}</Table.Td>
                <Table.Td ta="right">{formatNumber(r.closingRead)}</Table.Td>
                <Table.Td>
                  {r.readType ?? ''} {r.date ? formatDate(r.date) : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {bill.hasDocument ? (
        <Group>
          <Button size="xs" variant={viewing ? 'light' : 'filled'} onClick={() => setViewing((v) => !v)}>
            {viewing ? 'Hide the bill' : 'View on the bill'}
          </Button>
        </Group>
      ) : (
        <Alert color="gray">
          This bill has no document: it was imported as data, not captured from a file.
        </Alert>
      )}
      {viewing && bill.hasDocument && <BillDocument bill={bill} />}
    </Stack>
  );
}
