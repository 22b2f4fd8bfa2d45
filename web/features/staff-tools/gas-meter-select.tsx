import { type ComboboxItem, type OptionsFilter, Select, Stack, Text } from '@mantine/core';
import { useGasMeterChoices } from './api.ts';
import { gasMeterLabel, gasMeterMatches } from './gas-meter-choice.ts';

/**
 * The gas meters of the chosen company to pick from, searchable by name, MPRN or site; while they load,
 * or when the company has none, the field says so instead of offering an empty list.
 */
export function GasMeterSelect({
  companyId,
  value,
  onChange,
  error,
}: {
  companyId: string;
  value: string;
  onChange: (accountId: string) => void;
  error?: string;
}) {
  const { data, error: loadError, isLoading } = useGasMeterChoices(companyId);
  const meters = data?.data ?? [];
  const byId = new Map(meters.map((m) => [m._id, m]));
  const filter: OptionsFilter = ({ options, search, limit }) =>
    options
      .filter((o) => {
        const meter = 'value' in o ? byId.get(o.value) : undefined;
        return meter ? gasMeterMatches(meter, search) : false;
      })
      .slice(0, limit);
  const none = data !== undefined && meters.length === 0;
  const description = none
    ? 'This company has no gas meters.'
    : data && data.total > meters.length
      ? `The first ${meters.length} of ${data.total} gas meters are offered.`
      : undefined;
  return (
    <Select
      label="Gas meter"
      required
      searchable
      clearable
      disabled={none || loadError !== undefined}
      placeholder={
        isLoading ? 'Loading gas meters…' : none ? 'No gas meters' : 'Search by name, MPRN or site'
      }
      description={description}
      nothingFoundMessage="No gas meter matches"
      data={meters.map((m) => ({ value: m._id, label: gasMeterLabel(m) }))}
      filter={filter}
      limit={100}
      maxDropdownHeight={320}
      value={value || null}
      error={error ?? (loadError ? 'Could not load the gas meters' : undefined)}
      onChange={(id) => onChange(id ?? '')}
      renderOption={({ option }: { option: ComboboxItem }) => {
        const meter = byId.get(option.value);
        return (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            <Text size="xs" c="dimmed">
              {[meter?.siteName ?? 'No site', meter?.status === 'inactive' ? 'inactive' : undefined]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Stack>
        );
      }}
    />
  );
}
