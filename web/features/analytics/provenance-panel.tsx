import { Alert, Anchor, CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode, useEffect, useState } from 'react';
import type {
  ProvenanceAnswer,
  ProvenanceMeter,
  ProvenanceOtherPart,
  ProvenanceSite,
} from '../../../shared/schemas/provenance.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDate } from '../../lib/format.ts';
import { useProvenance } from './provenance-api.ts';
import { BillView } from './provenance-bill.tsx';
import { addsUp, fromFigure, fromTotals, showKg, showMoney, showShare } from './provenance-figures.ts';
import { type Part, PartsTable } from './provenance-parts.tsx';

export interface ProvenancePanelProps {
  selection: {
    assetId?: string;
    accountId?: string;
    month?: string;
    utilityType?: string;
    from: string;
    to: string;
  };
  onClose: () => void;
}

/** Where in the drill-down the user is: each level narrows the one above it. */
interface Place {
  assetId?: string | undefined;
  accountId?: string | undefined;
  invoiceId?: string | undefined;
}

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const OTHER_LABELS: Record<ProvenanceOtherPart['kind'], string> = {
  estimate: 'Estimated: no bill covers these days',
  import: 'Imported data (no bill)',
  unattributed: 'Recorded without a bill',
};

function windowLabel(s: ProvenancePanelProps['selection']): string {
  if (s.month) return MONTH.format(new Date(`${s.month}-01T00:00:00Z`));
  return `${formatDate(s.from)} to ${formatDate(s.to)}`;
}

function Crumbs({ items }: { items: readonly { label: string; go?: (() => void) | undefined }[] }) {
  return (
    <Group gap={6} component="nav" aria-label="Where you are in the figure">
      {items.map((c, i) => (
        <Fragment key={c.label}>
          {i > 0 && (
            <Text size="sm" c="dimmed">
              →
            </Text>
          )}
          {c.go && i < items.length - 1 ? (
            <Anchor component="button" type="button" size="sm" onClick={c.go}>
              {c.label}
            </Anchor>
          ) : (
            <Text size="sm" fw={600} aria-current="location">
              {c.label}
            </Text>
          )}
        </Fragment>
      ))}
    </Group>
  );
}

function CompanyLevel({ data, open }: { data: ProvenanceAnswer; open: (assetId: string) => void }) {
  if (data.sites.length === 0)
    return <EmptyPanel>No site you may read has figures in this window.</EmptyPanel>;
  const parts: Part[] = data.sites.map((s) => ({
    key: s._id,
    label: s.siteName ?? s._id,
    onOpen: () => open(s._id),
    shown: fromTotals(s.figure),
  }));
  return <PartsTable label="Sites" parts={parts} figure={fromTotals(data.figure)} figureLabel="The figure" />;
}

function SiteLevel({ site, open }: { site: ProvenanceSite; open: (accountId: string) => void }) {
  const meters = site.meters ?? [];
  if (meters.length === 0)
    return <EmptyPanel>This site has no meters with figures in this window.</EmptyPanel>;
  const parts: Part[] = meters.map((m) => ({
    key: m._id,
    label: m.name ?? m._id,
    note: [m.utilityType, m.meterPointNumber].filter(Boolean).join(' · '),
    onOpen: () => open(m._id),
    shown: fromFigure(m.figure),
  }));
  const figure = fromTotals(site.figure);
  const recorded = site.recorded ? fromTotals(site.recorded) : undefined;
  return (
    <Stack gap="xs">
      <PartsTable
        label="Meters"
        parts={parts}
        figure={figure}
        figureLabel={`${site.siteName ?? 'The site'}'s figure`}
      />
      {recorded && !addsUp(recorded, figure) && (
        <Alert color="orange" data-testid="provenance-drift">
          The site's monthly roll-up holds {showKg(recorded.emissionsKg)}
          {recorded.cost !== undefined ? ` and ${showMoney(recorded.cost)}` : ''}, which its meters' months do
          not make: Insights shows the roll-up. Recalculating the totals of one of its meters rebuilds it.
        </Alert>
      )}
    </Stack>
  );
}

function MeterLevel({ meter, open }: { meter: ProvenanceMeter; open: (invoiceId: string) => void }) {
  const bills: Part[] = meter.bills.map((b) => ({
    key: b.invoiceId,
    label: `Bill ${b.invoiceNumber ?? b.invoiceId}`,
    note: `${formatDate(b.period.start)} to ${formatDate(b.period.end)}: ${b.daysInWindow} of ${b.days} days, ${showShare(b.share)} of the bill`,
    onOpen: () => open(b.invoiceId),
    shown: fromFigure(b.part),
  }));
  const others: Part[] = meter.others.map((o) => ({
    key: `${o.kind}-${o.month}`,
    label: OTHER_LABELS[o.kind],
    note: `${o.month}${o.factorVersion ? ` · factors ${o.factorVersion}` : ''}`,
    shown: fromFigure(o.part),
  }));
  if (bills.length + others.length === 0) {
    return <EmptyPanel>This meter has no figures in this window.</EmptyPanel>;
  }
  return (
    <PartsTable
      label="Bills and other parts"
      parts={[...bills, ...others]}
      figure={fromFigure(meter.figure)}
      figureLabel={`${meter.name ?? 'The meter'}'s figure`}
    />
  );
}

function Body({
  data,
  place,
  go,
}: {
  data: ProvenanceAnswer;
  place: Place;
  go: (p: Place) => void;
}): ReactNode {
  const site = place.assetId ? data.sites.find((s) => s._id === place.assetId) : undefined;
  const meter = place.accountId
    ? data.sites.flatMap((s) => s.meters ?? []).find((m) => m._id === place.accountId)
    : undefined;
  const bill = place.invoiceId ? meter?.bills.find((b) => b.invoiceId === place.invoiceId) : undefined;
  if (bill) return <BillView bill={bill} />;
  if (meter) return <MeterLevel meter={meter} open={(invoiceId) => go({ ...place, invoiceId })} />;
  if (site?.meters) return <SiteLevel site={site} open={(accountId) => go({ ...place, accountId })} />;
  if (place.accountId || place.assetId)
    return <EmptyPanel>Nothing here has figures in this window.</EmptyPanel>;
  return <CompanyLevel data={data} open={(assetId) => go({ assetId })} />;
}

/**
 * Where a figure comes from, beside the page that shows it: the sites that make it, then a site's
 * meters, a meter's bills (each with the share of it the window takes) and the gaps estimated between
 * them, then one bill with its factor, who confirmed it and its document with the line outlined. Each
 * level shows its parts adding up to the figure above.
 */
export function ProvenancePanel({ selection, onClose }: ProvenancePanelProps) {
  const [place, setPlace] = useState<Place>({ assetId: selection.assetId, accountId: selection.accountId });
  // A new figure asked about starts the drill-down again from it.
  useEffect(() => {
    setPlace({ assetId: selection.assetId, accountId: selection.accountId });
  }, [selection.assetId, selection.accountId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  // A meter is asked for on its own (a sub-meter is not among its site's meters); its answer names its site.
  const { data, error, isLoading } = useProvenance({
    from: selection.from,
    to: selection.to,
    utilityType: selection.utilityType,
    assetId: place.assetId,
    accountId: place.accountId,
  });
  const siteOfMeter =
    place.accountId && data
      ? data.sites.find((s) => s.meters?.some((m) => m._id === place.accountId))
      : undefined;
  const site = place.assetId ? data?.sites.find((s) => s._id === place.assetId) : siteOfMeter;
  const meter = place.accountId ? site?.meters?.find((m) => m._id === place.accountId) : undefined;
  const bill = place.invoiceId ? meter?.bills.find((b) => b.invoiceId === place.invoiceId) : undefined;
  const crumbs = [
    { label: 'All sites', go: () => setPlace({}) },
    ...(site || place.assetId
      ? [{ label: site?.siteName ?? 'Site', go: () => setPlace({ assetId: site?._id ?? place.assetId }) }]
      : []),
    ...(meter
      ? [{ label: meter.name ?? 'Meter', go: () => setPlace({ assetId: site?._id, accountId: meter._id }) }]
      : []),
    ...(bill ? [{ label: `Bill ${bill.invoiceNumber ?? bill.invoiceId}` }] : []),
  ];

  return (
    <Paper
      component="aside"
      role="dialog"
      aria-label="Where does this come from?"
      shadow="xl"
      withBorder
      p="md"
      style={{
        position: 'fixed',
        top: 'var(--vf-header-height, 0px)',
        right: 0,
        bottom: 0,
        width: 'min(760px, 100vw)',
        zIndex: 300,
        overflowY: 'auto',
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <div>
            <Title order={3}>Where does this come from?</Title>
            <Text size="sm" c="dimmed">
              {windowLabel(selection)}
              {selection.utilityType ? ` · ${selection.utilityType}` : ''}
            </Text>
          </div>
          <CloseButton aria-label="Close" onClick={onClose} />
        </Group>
        <Crumbs items={crumbs} />
        {error && <ErrorPanel error={error} />}
        {isLoading && !data && <LoadingPanel label="Tracing the figure" />}
        {data && <Body data={data} place={{ ...place, assetId: site?._id ?? place.assetId }} go={setPlace} />}
        {data && !data.costsIncluded && (
          <Text size="xs" c="dimmed">
            Costs are hidden for this company.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
