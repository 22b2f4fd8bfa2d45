import {
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import type { GasPrediction } from '../../../shared/schemas/util-staff.ts';
import { FormPanel } from '../../components/form-panel.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useGasPrediction } from './api.ts';
import { GasMeterSelect } from './gas-meter-select.tsx';
import { CompanySelect, fieldError, useStaffForm } from './staff-form.tsx';

const FIELDS = ['accountId', 'companyId', 'startDate', 'endDate', 'degreeDays', 'historyMonths'];

/**
 * Degree days typed one month a line, 'YYYY-MM value' (a comma, tab or spaces between), as they come out
 * of a spreadsheet; lines that are not of that form are reported rather than dropped.
 */
export function parseDegreeDays(text: string): { values: Record<string, number>; bad: string[] } {
  const values: Record<string, number> = {};
  const bad: string[] = [];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^(\d{4}-\d{2})[\s,;]+(-?\d+(?:\.\d+)?)$/.exec(line);
    if (m?.[1] && m[2]) values[m[1]] = Number(m[2]);
    else bad.push(line);
  }
  return { values, bad };
}

/** /admin/tools/gas-prediction: a gas meter's consumption predicted from degree days (POST /util/gas-prediction-data). */
export function GasPredictionPage() {
  const gasPrediction = useGasPrediction();
  const [companyId, setCompanyId] = useState('');
  const [accountId, setAccountId] = useState('');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [historyMonths, setHistoryMonths] = useState<number>(24);
  const [degreeDays, setDegreeDays] = useState('');
  const { failure, setFailure, busy, run } = useStaffForm(FIELDS);
  const [result, setResult] = useState<GasPrediction>();

  async function predict() {
    const parsed = parseDegreeDays(degreeDays);
    const fields: Record<string, string> = {};
    if (!accountId) fields.accountId = 'Choose a gas meter';
    if (parsed.bad.length > 0) {
      fields.degreeDays = `Not a month and a number: ${parsed.bad.slice(0, 3).join('; ')}`;
    }
    if (Object.keys(fields).length > 0) {
      setFailure({ fields });
      return;
    }
    const sent = await run(async () => {
      const body = {
        accountId,
        ...(companyId ? { companyId } : {}),
        startDate,
        endDate,
        historyMonths,
        degreeDays: parsed.values,
      };
      setResult(await gasPrediction(body));
    });
    if (!sent) setResult(undefined);
  }

  const f = failure.fields;
  return (
    <Stack>
      <Title order={2}>Gas prediction</Title>
      <FormPanel
        title="Predict a gas meter"
        label="Gas prediction"
        failure={failure}
        onSubmit={predict}
        maw={760}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <CompanySelect
            value={companyId}
            error={f.companyId}
            onChange={(id) => {
              // A meter of one company is never one of another's.
              setCompanyId(id);
              setAccountId('');
            }}
            noneLabel="My own company"
          />
          <GasMeterSelect
            companyId={companyId}
            value={accountId}
            error={f.accountId}
            onChange={setAccountId}
          />
          <TextInput
            label="Start date"
            type="date"
            required
            value={startDate}
            error={f.startDate}
            onChange={(e) => setStartDate(e.currentTarget.value)}
          />
          <TextInput
            label="End date"
            type="date"
            required
            value={endDate}
            error={f.endDate}
            onChange={(e) => setEndDate(e.currentTarget.value)}
          />
          <NumberInput
            label="Months of history to learn from"
            min={6}
            max={60}
            value={historyMonths}
            error={f.historyMonths}
            onChange={(v) => setHistoryMonths(typeof v === 'number' ? v : Number(v) || 24)}
          />
        </SimpleGrid>
        <Textarea
          label="Heating degree days"
          description="One month a line, e.g. 2025-01 312.5: the history months and every month predicted"
          autosize
          minRows={4}
          value={degreeDays}
          error={fieldError(f, 'degreeDays')}
          onChange={(e) => setDegreeDays(e.currentTarget.value)}
        />
        <Group>
          <Button type="submit" loading={busy}>
            Predict
          </Button>
        </Group>
      </FormPanel>
      {result && (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Text size="sm">
              {formatNumber(result.totalKwh, { maximumFractionDigits: 0 })} kWh predicted from{' '}
              {result.period.startDate} to {result.period.endDate}. Model: {result.model.method},{' '}
              {formatNumber(result.model.baseloadKwhPerDay, { maximumFractionDigits: 1 })} kWh a day baseload,{' '}
              {formatNumber(result.model.kwhPerDegreeDay, { maximumFractionDigits: 2 })} kWh per degree day,
              R² {formatNumber(result.model.r2, { maximumFractionDigits: 2 })} over {result.model.monthsUsed}{' '}
              months.
            </Text>
            <Table aria-label="Predicted months" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Month</Table.Th>
                  <Table.Th ta="right">Days</Table.Th>
                  <Table.Th ta="right">Degree days</Table.Th>
                  <Table.Th ta="right">Baseload (kWh)</Table.Th>
                  <Table.Th ta="right">Heating (kWh)</Table.Th>
                  <Table.Th ta="right">Predicted (kWh)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.months.map((m) => (
                  <Table.Tr key={m.month}>
                    <Table.Td>{m.month}</Table.Td>
                    <Table.Td ta="right">{m.days}</Table.Td>
                    <Table.Td ta="right">{formatNumber(m.degreeDays)}</Table.Td>
                    <Table.Td ta="right">
                      {formatNumber(m.baseloadKwh, { maximumFractionDigits: 0 })}
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(m.heatingKwh, { maximumFractionDigits: 0 })}</Table.Td>
                    <Table.Td ta="right">
                      {formatNumber(m.predictedKwh, { maximumFractionDigits: 0 })}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
