import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { Template, TemplateBound, TextRule, VersionRule } from '../../../shared/capture/model.ts';
import { EmptyPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import {
  problemOf,
  TEMPLATE_MESSAGES,
  useSetBounds,
  useSetSupplierRules,
  useSetVersionRules,
  useSetVersions,
} from './template-api.ts';
import { RemoveIcon } from './template-list.tsx';

type RuleDraft = Omit<TextRule, '_id'> & { _id?: string; versionId?: string };

const pageLabel = (page: number) => (page === -1 ? 'Last' : String(page));

/** Field errors of a replaced list (`2.value`) as one line per row. */
function rowErrors(error: unknown, fallback: string): { rows: Record<number, string>; message?: string } {
  if (error instanceof ApiError && error.formMessages) {
    const rows: Record<number, string> = {};
    const other: string[] = [];
    for (const [path, message] of Object.entries(error.formMessages)) {
      const row = /^(\d+)\./.exec(path)?.[1];
      if (row === undefined) other.push(message);
      else rows[Number(row)] = rows[Number(row)] ? `${rows[Number(row)]} ${message}` : message;
    }
    return { rows, ...(other.length ? { message: other.join(' ') } : {}) };
  }
  return { rows: {}, message: problemOf(error, fallback) };
}

/**
 * Rules edited as rows and saved as a whole list: text the page must contain (or a regular expression),
 * optionally on one page, optionally negated. Version rules also name their version.
 */
function RuleRows({
  title,
  initial,
  versions,
  save,
  failureMessage,
}: {
  title: string;
  initial: RuleDraft[];
  versions?: Template['versions'];
  save: (rules: RuleDraft[]) => Promise<unknown>;
  failureMessage: string;
}) {
  const [rules, setRules] = useState<RuleDraft[]>(initial);
  const [problems, setProblems] = useState<{ rows: Record<number, string>; message?: string }>({ rows: {} });
  const [busy, setBusy] = useState(false);
  const set = (i: number, patch: Partial<RuleDraft>) =>
    setRules((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  async function submit() {
    setBusy(true);
    setProblems({ rows: {} });
    try {
      await save(rules);
      showToast(`${title} saved`, 'success');
    } catch (error) {
      setProblems(rowErrors(error, failureMessage));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      {problems.message && (
        <Alert color="red" role="alert">
          {problems.message}
        </Alert>
      )}
      {rules.length === 0 && <EmptyPanel>No {title.toLowerCase()} yet.</EmptyPanel>}
      {rules.map((r, i) => (
        <Stack key={r._id ?? `new-${i}`} gap={2}>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            {versions && (
              <NativeSelect
                aria-label={`Rule ${i + 1} version`}
                value={r.versionId ?? ''}
                data={versions.map((v) => ({ value: v._id, label: v.name }))}
                onChange={(e) => set(i, { versionId: e.currentTarget.value })}
              />
            )}
            <NativeSelect
              aria-label={`Rule ${i + 1} kind`}
              value={r.type}
              data={[
                { value: 'contains', label: 'Contains' },
                { value: 'regex', label: 'Matches' },
              ]}
              onChange={(e) => set(i, { type: e.currentTarget.value as TextRule['type'] })}
            />
            <TextInput
              aria-label={`Rule ${i + 1} text`}
              placeholder={r.type === 'regex' ? 'Regular expression' : 'Text on the page'}
              value={r.value}
              onChange={(e) => set(i, { value: e.currentTarget.value })}
              style={{ flex: 1 }}
            />
            <NumberInput
              aria-label={`Rule ${i + 1} page`}
              placeholder="Any page"
              value={r.page ?? ''}
              min={1}
              w={90}
              onChange={(v) => set(i, { page: typeof v === 'number' && v > 0 ? v : undefined })}
            />
            <Checkbox
              label="Absent"
              checked={r.negate === true}
              onChange={(e) => set(i, { negate: e.currentTarget.checked || undefined })}
            />
            <RemoveIcon
              label={`Remove rule ${i + 1}`}
              onClick={() => setRules((rs) => rs.filter((_r, j) => j !== i))}
            />
          </Group>
          {problems.rows[i] && (
            <Text size="xs" c="red">
              {problems.rows[i]}
            </Text>
          )}
        </Stack>
      ))}
      <Group justify="space-between">
        <Button
          variant="light"
          size="compact-sm"
          onClick={() =>
            setRules((rs) => [
              ...rs,
              { type: 'contains', value: '', ...(versions ? { versionId: versions[0]?._id } : {}) },
            ])
          }
        >
          Add rule
        </Button>
        <Button onClick={submit} loading={busy}>
          Save {title.toLowerCase()}
        </Button>
      </Group>
    </Stack>
  );
}

const cleanRule = ({ page, negate, ...rest }: RuleDraft) => ({
  ...rest,
  ...(page ? { page } : {}),
  ...(negate ? { negate } : {}),
});

/** The rules that tell this supplier's invoices from every other's: all must hold. */
export function SupplierRulesPanel({
  template,
  refresh,
}: {
  template: Template;
  refresh: () => Promise<unknown>;
}) {
  const setSupplierRules = useSetSupplierRules(template._id);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        All of these must hold for an invoice to be read with this template.
      </Text>
      <RuleRows
        key={JSON.stringify(template.supplierRules)}
        title="Supplier rules"
        initial={template.supplierRules}
        failureMessage={TEMPLATE_MESSAGES.supplierRules}
        save={async (rules) => {
          await setSupplierRules(rules.map(cleanRule));
        }}
      />
    </Stack>
  );
}

/** Versions of the layout, and the rules that pick one: the first version whose rules all hold wins. */
export function VersionsPanel({
  template,
  refresh,
}: {
  template: Template;
  refresh: () => Promise<unknown>;
}) {
  const setVersions = useSetVersions(template._id);
  const setVersionRules = useSetVersionRules(template._id);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();

  async function addVersion() {
    setProblem(undefined);
    try {
      await setVersions([
        ...template.versions.map((v) => ({ _id: v._id, name: v.name })),
        { name: name.trim() },
      ]);
      setName('');
    } catch (error) {
      setProblem(problemOf(error, TEMPLATE_MESSAGES.update));
    }
  }

  async function removeVersion(id: string) {
    setProblem(undefined);
    try {
      await setVersions(
        template.versions.filter((v) => v._id !== id).map((v) => ({ _id: v._id, name: v.name })),
      );
    } catch (error) {
      setProblem(problemOf(error, TEMPLATE_MESSAGES.update));
    }
  }

  return (
    <Stack gap="sm">
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group gap="xs">
        {template.versions.map((v) => (
          <Group key={v._id} gap={2}>
            <Text size="sm" fw={500}>
              {v.name}
            </Text>
            {template.versions.length > 1 && (
              <RemoveIcon size="sm" label={`Remove version ${v.name}`} onClick={() => removeVersion(v._id)} />
            )}
          </Group>
        ))}
      </Group>
      <Group align="flex-end">
        <TextInput label="New version" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Button variant="light" onClick={addVersion} disabled={!name.trim()}>
          Add version
        </Button>
      </Group>
      <Text size="sm" fw={500}>
        Version rules
      </Text>
      <RuleRows
        key={JSON.stringify([template.versionRules, template.versions])}
        title="Version rules"
        versions={template.versions}
        initial={template.versionRules}
        failureMessage={TEMPLATE_MESSAGES.versionRules}
        save={async (rules) => {
          await setVersionRules(rules.map((r) => cleanRule(r) as Omit<VersionRule, '_id'>));
        }}
      />
    </Stack>
  );
}

/** The bounds of a version: where they are, and removing one no value or rate reads. */
export function BoundsPanel({
  template,
  versionId,
  refresh,
}: {
  template: Template;
  versionId: string;
  refresh: () => Promise<unknown>;
}) {
  const setBounds = useSetBounds(template._id);
  const bounds = template.bounds.filter((b) => b.versionId === versionId);
  const users = (b: TemplateBound) =>
    template.values.filter((v) => v.boundId === b._id).length +
    template.rates.filter((r) => r.boundId === b._id).length;

  async function remove(b: TemplateBound) {
    try {
      await setBounds(template.bounds.filter((x) => x._id !== b._id));
    } catch (error) {
      showToast(problemOf(error, TEMPLATE_MESSAGES.bounds), 'error');
    }
  }

  if (bounds.length === 0)
    return <EmptyPanel>No bounds yet: turn on “Draw bound” and drag over the sample.</EmptyPanel>;
  const f = (n: number) => n.toFixed(3);
  return (
    <Table aria-label="Bounds">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Page</Table.Th>
          <Table.Th>Left, top</Table.Th>
          <Table.Th>Width × height</Table.Th>
          <Table.Th>Read by</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {bounds.map((b) => (
          <Table.Tr key={b._id}>
            <Table.Td>{b.name}</Table.Td>
            <Table.Td>{pageLabel(b.page)}</Table.Td>
            <Table.Td>
              {f(b.Left)}, {f(b.Top)}
            </Table.Td>
            <Table.Td>
              {f(b.Width)} × {f(b.Height)}
            </Table.Td>
            <Table.Td>{users(b) || '—'}</Table.Td>
            <Table.Td>
              <RemoveIcon label={`Delete bound ${b.name}`} onClick={() => remove(b)} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
