/**
 * What Insights reads besides the roll-ups (which the accounts area serves): the partitions of a company's
 * sites, meters, portfolios and entities, to resolve a caller's scope to the sites and meters they may read.
 *
 * | pattern | key condition | index |
 * |---|---|---|
 * | a company's sites, meters, portfolios or entities by id | `pk = C#{companyId}#{collection}`, `sk = {id}` | table |
 */
import { keys } from '../core/data/keys.ts';

export type ScopeCollection = 'accounts' | 'assets' | 'asset-groups' | 'entities';

export const scopeCollectionPk = (companyId: string, collection: ScopeCollection): string =>
  keys.collection({ companyId }, collection);
