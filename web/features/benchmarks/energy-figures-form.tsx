import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import type { EnergyBenchmarkKind } from '../../../shared/benchmarks/energy-benchmarks.ts';
import { type EnergyBenchmarkView, useSaveEnergyFigures } from './api.ts';
import { PROPERTY_TYPES } from './benchmark-parts.tsx';

const numberOrUndefined = (v: string | number) =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** Staff set a building type's figures in a set, always with their source and period. */
export function EnergyFiguresForm({
  kind,
  benchmarks,
}: {
  kind: EnergyBenchmarkKind;
  benchmarks: readonly EnergyBenchmarkView[];
}) {
  const save = useSaveEnergyFigures();
  const [propertyType, setPropertyType] = useState<string>('');
  const existing = benchmarks.find((b) => b.propertyType.toLowerCase() === propertyType.toLowerCase());
  const [target, setTarget] = useState<string | number>('');
  const [goodPractice, setGoodPractice] = useState<string | number>('');
  const [typical, setTypical] = useState<string | number>('');
  const [source, setSource] = useState('');
  const [period, setPeriod] = useState('');
  const [illustrative, setIllustrative] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();

  function choose(type: string) {
    setPropertyType(type);
    const b = benchmarks.find((x) => x.propertyType.toLowerCase() === type.toLowerCase());
    setTarget(b?.target ?? '');
    setGoodPractice(b?.goodPractice ?? '');
    setTypical(b?.typical ?? '');
    setSource(b?.source ?? '');
    setPeriod(b?.period ?? '');
    setIllustrative(b?.illustrative ?? false);
  }

  async function submit() {
    const values = {
      ...(numberOrUndefined(target) === undefined ? {} : { target: numberOrUndefined(target) }),
      ...(numberOrUndefined(goodPractice) === undefined
        ? {}
        : { goodPractice: numberOrUndefined(goodPractice) }),
      ...(numberOrUndefined(typical) === undefined ? {} : { typical: numberOrUndefined(typical) }),
    };
    try {
      await save(existing?._id, { kind, propertyType, values, source, period, illustrative });
      setMessage({ ok: true, text: `Saved the ${propertyType} figures.` });
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : 'The figures could not be saved' });
    }
  }

  const types = [...new Set([...benchmarks.map((b) => b.propertyType), ...PROPERTY_TYPES])];
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>Set a building type's figures</Title>
        <Group align="end">
          <Select
            label="Building type"
            data={types}
            value={propertyType || null}
            onChange={(v) => choose(v ?? '')}
          />
          <NumberInput label="Target" value={target} onChange={setTarget} min={0} />
          <NumberInput label="Good practice" value={goodPractice} onChange={setGoodPractice} min={0} />
          <NumberInput label="Typical" value={typical} onChange={setTypical} min={0} />
        </Group>
        <Group align="end">
          <TextInput
            label="Source"
            value={source}
            onChange={(e) => setSource(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Period"
            value={period}
            onChange={(e) => setPeriod(e.currentTarget.value)}
            required
          />
          <Checkbox
            label="Illustrative (not confirmed against the source)"
            checked={illustrative}
            onChange={(e) => setIllustrative(e.currentTarget.checked)}
          />
        </Group>
        {message && (
          <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Alert>
        )}
        <Group>
          <Button onClick={submit} disabled={!propertyType || !source || !period}>
            {existing ? 'Save figures' : 'Add figures'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
