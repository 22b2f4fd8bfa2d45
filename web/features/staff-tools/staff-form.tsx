import { NativeSelect } from '@mantine/core';
import { useState } from 'react';
import { type FormFailure, formFailureOf, NO_FAILURE } from '../../lib/form-errors.ts';
import { useGlobalCompanies } from '../../lib/global-companies-api.ts';

/**
 * Server messages beside the form's fields (items such as mpans.0 beside their list); messages for
 * fields the form does not show go above it, so none is lost.
 */
export function staffFormFailureOf(error: unknown, shown: readonly string[]): FormFailure {
  const all = formFailureOf(error);
  const unshown = Object.keys(all.fields).filter((k) => !shown.some((f) => k === f || k.startsWith(`${f}.`)));
  return unshown.length > 0 ? { ...all, message: unshown.map((k) => all.fields[k]).join(' ') } : all;
}

/**
 * A staff form's failure and busy state. `run` sends the form: while it runs the button spins, and
 * what it throws lands beside the fields in `shown` (or above the form); it answers whether it went through.
 */
export function useStaffForm(shown: readonly string[]) {
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  async function run(send: () => Promise<void>): Promise<boolean> {
    setFailure(NO_FAILURE);
    setBusy(true);
    try {
      await send();
      return true;
    } catch (error) {
      setFailure(staffFormFailureOf(error, shown));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { failure, setFailure, busy, run };
}

/** The first message of a field or of any of its items (mpans.0, mpans.1, ...). */
export const fieldError = (fields: Record<string, string>, name: string) =>
  fields[name] ?? Object.entries(fields).find(([k]) => k.startsWith(`${name}.`))?.[1];

/** A choice of every company (staff see them all); the empty choice reads `noneLabel`. */
export function CompanySelect({
  value,
  onChange,
  error,
  noneLabel,
  required,
}: {
  value: string;
  onChange: (companyId: string) => void;
  error?: string;
  noneLabel: string;
  required?: boolean;
}) {
  const companies = useGlobalCompanies();
  return (
    <NativeSelect
      label="Company"
      required={required}
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[
        { value: '', label: noneLabel },
        ...(companies.data?.data ?? []).map((c) => ({ value: c._id, label: c.name ?? c._id })),
      ]}
    />
  );
}
