import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '../../../shared/constants.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formFailureOf } from '../../lib/form-errors.ts';
import { type AreaUnitSystem, formatArea } from '../../lib/format.ts';
import {
  type AssetGroup,
  useAddGroupAssets,
  useAssetChoices,
  useGroupAssets,
  useRemoveGroupAsset,
  useRemoveGroupAssets,
} from './api.ts';
import { PortfolioLayout } from './portfolio-layout.tsx';
import { PORTFOLIO_WRITERS } from './portfolio-list-page.tsx';

function AddAssets({ group, onProblem }: { group: AssetGroup; onProblem: (message?: string) => void }) {
  const addAssets = useAddGroupAssets();
  const [input, setInput] = useState('');
  const [query] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const { data, isLoading } = useAssetChoices(group._id, query);
  const choices = (data?.data ?? []).filter((a) => !a.inGroup);

  async function add(ids: string[]) {
    onProblem(undefined);
    try {
      await addAssets(group._id, ids);
    } catch (error) {
      onProblem(formFailureOf(error).message ?? Object.values(formFailureOf(error).fields).join(' '));
    }
  }

  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Add sites
      </Title>
      <TextInput
        label="Find sites"
        description={`Site name, postcode or town: at least ${SEARCH_MIN_CHARS} characters`}
        value={input}
        onChange={(e) => setInput(e.currentTarget.value)}
      />
      {query.length >= SEARCH_MIN_CHARS && (
        <Stack gap={6} mt="sm">
          {isLoading && !data && <LoadingPanel />}
          {data && choices.length === 0 && <EmptyPanel>No other sites match.</EmptyPanel>}
          {choices.map((a) => (
            <Group key={a._id} justify="space-between" wrap="nowrap">
              <Text size="sm">
                {a.siteName}
                {a.addressString && (
                  <Text span c="dimmed" size="xs">
                    {' '}
                    {a.addressString}
                  </Text>
                )}
              </Text>
              <Button size="xs" variant="light" onClick={() => add([a._id])} aria-label={`Add ${a.siteName}`}>
                Add
              </Button>
            </Group>
          ))}
          {choices.length > 1 && (
            <Group justify="flex-end">
              <Button size="xs" onClick={() => add(choices.map((c) => c._id))}>
                Add all {choices.length}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Paper>
  );
}

function AssetsTable({
  group,
  unit,
  canWrite,
}: {
  group: AssetGroup;
  unit: AreaUnitSystem;
  canWrite: boolean;
}) {
  const { data, error, isLoading } = useGroupAssets(group._id);
  const removeAsset = useRemoveGroupAsset();
  const removeAssets = useRemoveGroupAssets();
  const [problem, setProblem] = useState<string>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [removing, setRemoving] = useState(false);
  const listed = data?.data ?? [];
  const chosen = listed.filter((a) => selected.has(a._id));
  const allChosen = listed.length > 0 && chosen.length === listed.length;

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  async function remove(assetId: string) {
    setProblem(undefined);
    try {
      await removeAsset(group._id, assetId);
      setSelected((prev) => new Set([...prev].filter((id) => id !== assetId)));
    } catch (err) {
      setProblem(formFailureOf(err).message);
    }
  }

  /**
   * One PATCH of the portfolio with the sites that stay, so the removal is all or nothing. The list is
   * re-read first so a site someone added meanwhile stays; ids the table never showed (deleted sites)
   * are dropped, since the API refuses a list that names one.
   */
  async function removeSelected() {
    setProblem(undefined);
    setRemoving(true);
    try {
      const shown = new Set(listed.map((a) => a._id));
      const gone = new Set(group.assetIds.filter((id) => !shown.has(id)));
      await removeAssets(group._id, new Set(chosen.map((a) => a._id)), gone);
      setSelected(new Set());
    } catch (err) {
      const failure = formFailureOf(err);
      setProblem(failure.message ?? Object.values(failure.fields).join(' '));
    } finally {
      setRemoving(false);
    }
  }

  return (
    <Stack>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && data.data.length === 0 && <EmptyPanel>This portfolio has no sites yet.</EmptyPanel>}
        {canWrite && listed.length > 0 && (
          <Group justify="space-between" mb="sm">
            <Text size="sm" c="dimmed">
              {chosen.length === 0 ? 'Tick sites to remove several at once.' : `${chosen.length} selected`}
            </Text>
            <Button
              size="xs"
              color="red"
              variant="light"
              disabled={chosen.length === 0}
              loading={removing}
              onClick={removeSelected}
            >
              Remove selected
            </Button>
          </Group>
        )}
        {data && data.data.length > 0 && (
          <Table striped highlightOnHover aria-label="Sites in the portfolio">
            <Table.Thead>
              <Table.Tr>
                {canWrite && (
                  <Table.Th w={36}>
                    <Checkbox
                      aria-label="Select all sites"
                      checked={allChosen}
                      indeterminate={chosen.length > 0 && !allChosen}
                      onChange={() => setSelected(allChosen ? new Set() : new Set(listed.map((a) => a._id)))}
                    />
                  </Table.Th>
                )}
                <Table.Th>Site</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th ta="right">Floor area</Table.Th>
                {canWrite && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((a) => (
                <Table.Tr key={a._id}>
                  {canWrite && (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${a.siteName}`}
                        checked={selected.has(a._id)}
                        onChange={() => toggle(a._id)}
                      />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor component={Link} to={`/assets/${a._id}/overview`}>
                        {a.siteName}
                      </Anchor>
                      {a.status && a.status !== 'active' && <Badge size="xs">{a.status}</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {[a.address?.streetAddress, a.address?.locality, a.address?.postCode]
                      .filter(Boolean)
                      .join(', ')}
                  </Table.Td>
                  <Table.Td>{a.assetType ?? '—'}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {a.floorAreaM2 === null ? '—' : formatArea(a.floorAreaM2, unit)}
                  </Table.Td>
                  {canWrite && (
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => remove(a._id)}
                        aria-label={`Remove ${a.siteName}`}
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {canWrite && <AddAssets group={group} onProblem={setProblem} />}
    </Stack>
  );
}

/** /portfolios/{id}/assets: the portfolio's sites with their floor areas; company users add and remove sites. */
export function PortfolioAssetsPage() {
  const { access } = useSession();
  return (
    <PortfolioLayout tab="assets">
      {(group, unit) => (
        <AssetsTable group={group} unit={unit} canWrite={canChange(PORTFOLIO_WRITERS, access)} />
      )}
    </PortfolioLayout>
  );
}
