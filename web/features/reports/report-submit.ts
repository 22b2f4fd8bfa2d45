import { useState } from 'react';
import type { ReportScopeType } from '../../../shared/reports/report-templates.ts';
import { type FormFailure, formFailureOf, NO_FAILURE } from '../../lib/form-errors.ts';

/**
 * What the report and schedule forms do on submit: one send at a time, the server's messages beside their
 * fields when it refuses, and the line `send` answers shown once it succeeds (until the next submit).
 */
export function useReportSubmit() {
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();

  async function run(send: () => Promise<string>) {
    setBusy(true);
    setDone(undefined);
    try {
      const line = await send();
      setFailure(NO_FAILURE);
      setDone(line);
    } catch (err) {
      setFailure(formFailureOf(err));
    } finally {
      setBusy(false);
    }
  }

  return { failure, busy, done, run };
}

/** The scope chosen when the template offers it, else the template's first. */
export const offeredScope = (scopes: readonly ReportScopeType[], chosen: string): ReportScopeType =>
  scopes.find((s) => s === chosen) ?? scopes[0] ?? 'company';

/** The scope's id as a request names it: a company-wide report names none. */
export const scopeIdOf = (scopeType: ReportScopeType, scopeId: string): { scopeId?: string } =>
  scopeType !== 'company' && scopeId ? { scopeId } : {};
