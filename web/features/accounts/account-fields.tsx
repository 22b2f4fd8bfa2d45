import { Group, NativeSelect, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  ACCOUNT_UNITS,
  meterPointKind,
  meterPointNumberError,
} from '../../../shared/schemas/account-rules.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import {
  type SupplierOption,
  type TenantOption,
  useAccountsOfAsset,
  useSiteTenants,
  useSuppliers,
  useWasteCategories,
} from './api.ts';

/** Fields the account wizard and the account's edit page share. */

/**
 * The unit a meter counts in (its utility's units, and the one it has if that is another) and, for waste,
 * the category its emissions are worked out by.
 */
export function UnitFields({
  type,
  unit,
  onUnit,
  wasteCategory,
  onWasteCategory,
  errors,
}: {
  type: UtilityType;
  unit: string;
  onUnit: (value: string) => void;
  wasteCategory: string;
  onWasteCategory: (value: string) => void;
  errors: { unit?: string | undefined; wasteCategory?: string | undefined };
}) {
  const waste = useWasteCategories();
  return (
    <Group grow>
      <NativeSelect
        label="Unit"
        value={unit}
        error={errors.unit}
        onChange={(e) => onUnit(e.currentTarget.value)}
        data={[...new Set([...ACCOUNT_UNITS[type], unit])]}
      />
      {type === 'waste' && (
        <NativeSelect
          label="Waste category"
          value={wasteCategory}
          error={errors.wasteCategory}
          onChange={(e) => onWasteCategory(e.currentTarget.value)}
          data={[{ value: '', label: 'Choose a category' }, ...(waste.data?.data ?? [])]}
        />
      )}
    </Group>
  );
}

export const meterPointLabel = (type: string) => {
  const kind = meterPointKind(type);
  if (kind === 'MPAN') return 'MPAN (13-digit core)';
  if (kind === 'MPRN') return 'MPRN';
  return 'Meter number';
};

/**
 * The meter point number, checked as it is typed with the same MPAN and MPRN rules as the API, once the
 * field has been left or the form submitted; a server message for the field wins until it is changed.
 */
/** Smart electricity and gas meters: their half-hourly data is fetched by meter point and serial. */
const SERIAL_TYPES: readonly string[] = ['electricity', 'gas'];

export const hasMeterSerial = (type: string) => SERIAL_TYPES.includes(type);

/** The serial printed on the meter, for the utilities whose meters a data provider knows by it. */
export function MeterSerialField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <TextInput
      label="Meter serial number"
      description="Printed on the meter and on its bills; half-hourly meter data is matched to this meter by it."
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

export function MeterPointField({
  type,
  value,
  onChange,
  serverError,
  showErrors,
  required,
}: {
  type: string;
  value: string;
  onChange: (value: string) => void;
  serverError?: string;
  showErrors: boolean;
  required: boolean;
}) {
  const [touched, setTouched] = useState(false);
  const local = meterPointNumberError(type, value);
  const error = serverError ?? (touched || showErrors ? local : undefined);
  return (
    <TextInput
      label={meterPointLabel(type)}
      value={value}
      required={required}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={() => setTouched(true)}
      error={error}
      inputMode={meterPointKind(type) ? 'numeric' : undefined}
      autoComplete="off"
    />
  );
}

const supplierFits = (s: SupplierOption, type: string) =>
  s.type !== 'distributor' &&
  (!s.utilityTypes || s.utilityTypes.length === 0 || s.utilityTypes.some((u) => u === type));

export function SupplierField({
  type,
  value,
  onChange,
  error,
}: {
  type: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { data } = useSuppliers();
  const options = (data?.data ?? []).filter((s) => supplierFits(s, type) || s._id === value);
  return (
    <NativeSelect
      label="Supplier"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      data={[
        { value: '', label: 'No supplier' },
        ...options.sort((a, b) => a.name.localeCompare(b.name)).map((s) => ({ value: s._id, label: s.name })),
      ]}
    />
  );
}

/** A parent account: a main supply of the same asset and utility (the new account is then a sub-meter). */
export function ParentAccountField({
  assetId,
  type,
  selfId,
  value,
  onChange,
  error,
}: {
  assetId: string;
  type: string;
  selfId?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { data } = useAccountsOfAsset(assetId || undefined);
  const options = (data?.data ?? []).filter(
    (a: AccountView) => a.type === type && a._id !== selfId && a.parentAccountId !== selfId,
  );
  return (
    <NativeSelect
      label="Parent account"
      description="Choose one to make this a sub-meter of that account"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      disabled={!assetId}
      data={[
        { value: '', label: 'None (a main supply)' },
        ...options.map((a) => ({ value: a._id, label: a.name ?? a.meterPointNumber ?? a._id })),
      ]}
    />
  );
}

/** Who uses a meter's supply, as the account pages name it (analytics split figures by it). */
export const METER_USER_LABELS: Readonly<Record<string, string>> = {
  landlord: 'Landlord (base building, common parts)',
  tenant: 'Tenant',
  shared: 'Shared (whole building)',
};

/** A tenant as listed: its name, and its unit where it has one. */
export const tenantLabel = (t: TenantOption) => (t.unit ? `${t.name} (${t.unit})` : t.name);

/**
 * The tenant a meter names, as its pages show it: its name while the site's tenants load ('…'), or, when
 * it is no longer one of them (removed while the meter was being saved), words saying so, never its id.
 */
export function meterTenantText(
  tenantId: string,
  tenants: readonly TenantOption[] | undefined,
  failed = false,
): string {
  if (failed) return 'a tenant of the site';
  if (!tenants) return '…';
  const tenant = tenants.find((t) => t._id === tenantId);
  return tenant ? tenantLabel(tenant) : 'a tenant no longer on the site';
}

/** Who uses the meter's supply and, for a tenant, which of the site's tenants. */
export function MeterUserFields({
  assetId,
  user,
  onUser,
  tenantId,
  onTenant,
  errors,
}: {
  assetId: string;
  user: string;
  onUser: (value: string) => void;
  tenantId: string;
  onTenant: (value: string) => void;
  errors: { meterUser?: string | undefined; meterUserTenantId?: string | undefined };
}) {
  const tenants = useSiteTenants(user === 'tenant' ? assetId : undefined);
  return (
    <Group grow align="flex-start">
      <NativeSelect
        label="Used by"
        description="Splits this meter's figures in analytics"
        value={user}
        error={errors.meterUser}
        onChange={(e) => {
          onUser(e.currentTarget.value);
          if (e.currentTarget.value !== 'tenant') onTenant('');
        }}
        data={[
          { value: '', label: 'Not set' },
          ...Object.entries(METER_USER_LABELS).map(([value, label]) => ({ value, label })),
        ]}
      />
      {user === 'tenant' && (
        <NativeSelect
          label="Tenant"
          value={tenantId}
          error={errors.meterUserTenantId}
          onChange={(e) => onTenant(e.currentTarget.value)}
          data={[
            { value: '', label: 'Any tenant of the site' },
            ...(tenants.data?.data ?? []).map((t) => ({ value: t._id, label: tenantLabel(t) })),
            // A tenant removed since the meter named it is shown as such, so the user sees to choose again.
            ...(tenantId && tenants.data && !tenants.data.data.some((t) => t._id === tenantId)
              ? [{ value: tenantId, label: meterTenantText(tenantId, tenants.data.data) }]
              : []),
          ]}
        />
      )}
    </Group>
  );
}

/** Tags typed as a comma-separated list. */
export const parseTags = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];
