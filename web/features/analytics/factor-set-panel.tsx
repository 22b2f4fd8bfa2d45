import { Alert, Button, Group, NativeSelect, Paper, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { canChange } from '../../../shared/access/route-access.ts';
import { useSession } from '../../lib/app-context.tsx';
import { keysUnder, useRevalidate } from '../../lib/endpoint.ts';
import { formatNumber } from '../../lib/format.ts';
import {
  type FactorSets,
  type Restatement,
  type RestatementJob,
  useFactorSets,
  useRestate,
  useRestatementJob,
} from './factor-set-api.ts';

const ADMINS = ['company_admin'] as const;
const kg = (v: number) => `${formatNumber(v, { maximumFractionDigits: 1 })} kg`;

/** What a restatement changed, year by year. */
export function restatementText(r: Restatement): string {
  const changed = r.years.filter((y) => y.beforeKg !== y.afterKg);
  if (changed.length === 0) return 'No figure changed: the figures were already in this factor set.';
  return `${r.months} meter months recomputed. ${changed.map((y) => `${y.year}: ${kg(y.beforeKg)} → ${kg(y.afterKg)}`).join('; ')}.`;
}

/** Where a queued restatement has got to: its progress, what it changed, or that it failed. */
export function RestatementStatus({ job }: { job: RestatementJob }) {
  if (job.status === 'done' && job.result) return <Alert color="teal">{restatementText(job.result)}</Alert>;
  if (job.status === 'failed')
    return <Alert color="red">{job.error ?? 'The figures could not be restated.'}</Alert>;
  return (
    <Stack gap={4} aria-label="Restatement progress">
      <Text size="xs" c="dimmed">
        {job.status === 'queued'
          ? 'Restatement queued: the figures are recomputed in the background.'
          : `Recomputing the figures: ${job.progress}% of the meters done.`}
      </Text>
      <Progress value={job.progress} size="sm" />
    </Stack>
  );
}

function RestateForm({ sets }: { sets: FactorSets }) {
  const restate = useRestate();
  const revalidate = useRevalidate();
  const [choice, setChoice] = useState(sets.editions.find((e) => e.current)?.id ?? sets.current.id);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<string>();
  const [error, setError] = useState<string>();
  const { data: job } = useRestatementJob(jobId);
  const finished = job?.status === 'done';
  useEffect(() => {
    // Every figure may have changed: the pages' answers are fetched again once the job is done.
    if (finished)
      void revalidate(keysUnder('/analytics'), keysUnder('/dashboards'), '/users/me/dashboard-data');
  }, [finished, revalidate]);
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setJobId((await restate(choice)).jobId);
      setConfirming(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The figures could not be restated');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <NativeSelect
          label="Restate in"
          value={choice}
          onChange={(e) => {
            setChoice(e.currentTarget.value);
            setConfirming(false);
          }}
          data={sets.editions.map((e) => ({
            value: e.id,
            label: e.current ? `${e.label} (current)` : e.label,
          }))}
        />
        {confirming ? (
          <>
            <Button color="red" size="sm" loading={busy} onClick={() => void run()}>
              Recompute every figure
            </Button>
            <Button variant="default" size="sm" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button variant="light" size="sm" onClick={() => setConfirming(true)}>
            Restate…
          </Button>
        )}
      </Group>
      {confirming && (
        <Text size="xs" c="dimmed">
          Every meter month in other factors is recomputed, and the activity log records each year's totals
          before and after.
        </Text>
      )}
      {job && <RestatementStatus job={job} />}
      {error && <Alert color="red">{error}</Alert>}
    </Stack>
  );
}

/** The factor set the emissions are stated in; company admins may restate them in another edition. */
export function FactorSetPanel() {
  const { access } = useSession();
  const { data } = useFactorSets();
  if (!data) return null;
  const admin = canChange(ADMINS, access);
  return (
    <Paper withBorder p="md" aria-label="Emission factor set">
      <Stack gap="xs">
        <Text size="sm">
          Figures stated in <b>{data.current.label}</b>
          {data.current.restatedAt ? ` (restated ${data.current.restatedAt.slice(0, 10)})` : ''}.
        </Text>
        {admin && <RestateForm sets={data} />}
      </Stack>
    </Paper>
  );
}
