/**
 * What Insights reads besides the roll-ups (which the accounts area serves): the partitions of a company's
 * sites, meters and portfolios, to resolve a caller's scope to the sites and meters they may read.
 *
 * | pattern | key condition | index |
 * |---|---|---|
 * | a company's sites, meters or portfolios by id | `pk = C#{companyId}#{collection}`, `sk = {id}` | table |
 */
import { keys } from '../core/data/keys.ts';

export type ScopeCollection = 'accounts' | 'assets' | 'asset-groups';

export const scopeCollectionPk = (companyId: string, collection: ScopeCollection): string =>
  keys.collection({ companyId }, collection);
