import { Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import type { EntityNode } from '../../../shared/schemas/register.ts';
import { clearedFields } from '../../lib/cleared-fields.ts';
import { entityOptions } from './api.ts';

/** What the wizard and the edit page ask about an entity; empty strings stand for empty fields. */
export interface EntityDraft {
  legalName: string;
  companyNumber: string;
  parentEntityId: string;
  streetAddress: string;
  locality: string;
  region: string;
  postCode: string;
  country: string;
}

export const EMPTY_DRAFT: EntityDraft = {
  legalName: '',
  companyNumber: '',
  parentEntityId: '',
  streetAddress: '',
  locality: '',
  region: '',
  postCode: '',
  country: 'United Kingdom',
};

const ADDRESS_FIELDS = ['streetAddress', 'locality', 'region', 'postCode', 'country'] as const;

/** The request body for a draft: empty optional fields left out, the address nested. */
export function entityBody(d: EntityDraft): Record<string, unknown> {
  const address = Object.fromEntries(
    ADDRESS_FIELDS.filter((k) => d[k].trim() !== '').map((k) => [k, d[k].trim()]),
  );
  return {
    legalName: d.legalName.trim(),
    ...(d.companyNumber.trim() ? { companyNumber: d.companyNumber.trim() } : {}),
    parentEntityId: d.parentEntityId || null,
    ...(Object.keys(address).length > 0 ? { address } : {}),
  };
}

/**
 * The PATCH body for an edited draft: as entityBody, with a field the user emptied sent as null so the
 * server removes it. The address goes as a whole, so only an address emptied entirely needs the null.
 */
export function entityEditBody(before: EntityDraft, d: EntityDraft): Record<string, unknown> {
  const body = entityBody(d);
  const addressEmptied = body.address === undefined && ADDRESS_FIELDS.some((k) => before[k].trim() !== '');
  return {
    ...clearedFields({ companyNumber: d.companyNumber }, before),
    ...(addressEmptied ? { address: null } : {}),
    ...body,
  };
}

/** A server message for `address.postCode` belongs beside the postcode field. */
export const fieldError = (errors: Record<string, string>, field: keyof EntityDraft) =>
  errors[field] ?? errors[`address.${field}`];

type Change = (field: keyof EntityDraft, value: string) => void;

export function DetailsFields({
  draft,
  errors,
  onChange,
}: {
  draft: EntityDraft;
  errors: Record<string, string>;
  onChange: Change;
}) {
  return (
    <Stack>
      <TextInput
        label="Legal name"
        required
        value={draft.legalName}
        error={fieldError(errors, 'legalName')}
        onChange={(e) => onChange('legalName', e.currentTarget.value)}
      />
      <TextInput
        label="Company number"
        description="As registered at Companies House"
        value={draft.companyNumber}
        error={fieldError(errors, 'companyNumber')}
        onChange={(e) => onChange('companyNumber', e.currentTarget.value)}
      />
    </Stack>
  );
}

export function ParentField({
  tree,
  value,
  error,
  onChange,
  except,
  allowTop,
}: {
  tree: readonly EntityNode[];
  value: string;
  error?: string;
  onChange: (value: string) => void;
  /** The entity being edited: neither it nor its subsidiaries can become its parent. */
  except?: string;
  allowTop: boolean;
}) {
  const options = entityOptions(tree, except);
  return (
    <NativeSelect
      label="Parent entity"
      description="Where the entity sits in the company's group"
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[
        ...(allowTop || value === '' ? [{ value: '', label: 'None (top of the group)' }] : []),
        ...options.map((o) => ({ value: o.value, label: o.label })),
      ]}
    />
  );
}

export function AddressFields({
  draft,
  errors,
  onChange,
}: {
  draft: EntityDraft;
  errors: Record<string, string>;
  onChange: Change;
}) {
  const input = (field: (typeof ADDRESS_FIELDS)[number], label: string) => (
    <TextInput
      label={label}
      value={draft[field]}
      error={fieldError(errors, field)}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  return (
    <Stack>
      {input('streetAddress', 'Street address')}
      <Group grow>
        {input('locality', 'Town or city')}
        {input('region', 'Region')}
      </Group>
      <Group grow>
        {input('postCode', 'Postcode')}
        {input('country', 'Country')}
      </Group>
    </Stack>
  );
}
