import type { GlobalStats } from '../../shared/schemas/util-staff.ts';
import { inPool } from '../core/lib/in-pool.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { companyCounts, liveCompanies } from './staff-repository.ts';

/**
 * GET /util/global-stats: counts across every company, for staff. The companies list is read whole
 * (one partition), then each company's own collections are counted with COUNT queries, a few companies
 * at a time: no Scan of the table, and no item bodies moved for the big collections.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The smallest id made at a moment: ids start with their creation time in hex milliseconds, so the
 * invoices of a month are the sort keys from the id of its first millisecond on.
 */
export const firstIdAt = (ms: number) => `${ms.toString(16).padStart(12, '0').slice(-12)}${'0'.repeat(12)}`;

const stats = operation({}, async (_ctx): Promise<OpResult> => {
  const now = new Date();
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const fromId = firstIdAt(monthStart);
  const companies = await liveCompanies();
  const people = new Set<string>();
  const rows = await inPool(companies, 4, async (company) => {
    const { memberIds, ...counts } = await companyCounts(company._id, fromId);
    for (const id of memberIds) people.add(id);
    return { ...company, users: memberIds.length, ...counts };
  });
  rows.sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  const total = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
  const body: GlobalStats = {
    generatedAt: now.toISOString(),
    month: `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`,
    totals: {
      companies: rows.length,
      users: people.size,
      entities: total((r) => r.entities),
      assets: total((r) => r.assets),
      accounts: total((r) => r.accounts),
      invoicesThisMonth: total((r) => r.invoicesThisMonth),
    },
    companies: rows,
  };
  return { body };
});

export const GLOBAL_STATS_OPERATIONS: Operations = { 'stats.global': stats };
