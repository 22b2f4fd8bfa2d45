import { Alert, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { canUseRoute } from '../../../shared/access/route-access.ts';
import { useSession } from '../../lib/app-context.tsx';
import { formatNumber } from '../../lib/format.ts';
import { type FactorSets, type Restatement, useFactorSets, useRestate } from './factor-set-api.ts';

const ADMINS = ['company_admin'] as const;
const kg = (v: number) => `${formatNumber(v, { maximumFractionDigits: 1 })} kg`;

/** What a restatement changed, year by year. */
export function restatementText(r: Restatement): string {
  const changed = r.years.filter((y) => y.beforeKg !== y.afterKg);
  if (changed.length === 0) return 'No figure changed: the figures were already in this factor set.';
  return `${r.months} meter months recomputed. ${changed.map((y) => `${y.year}: ${kg(y.beforeKg)} → ${kg(y.afterKg)}`).join('; ')}.`;
}

function RestateForm({ sets }: { sets: FactorSets }) {
  const restate = useRestate();
  const [choice, setChoice] = useState(sets.current.id);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Restatement>();
  const [error, setError] = useState<string>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setResult(await restate(choice));
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
          data={sets.editions.map((e) => ({ value: e.id, label: e.label }))}
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
      {result && <Alert color="teal">{restatementText(result)}</Alert>}
      {error && <Alert color="red">{error}</Alert>}
    </Stack>
  );
}

/** The factor set the emissions are stated in; company admins may restate them in another edition. */
export function FactorSetPanel() {
  const { access } = useSession();
  const { data } = useFactorSets();
  if (!data) return null;
  const admin = canUseRoute(ADMINS, access);
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
