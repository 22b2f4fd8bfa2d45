/**
 * A company's kiosks (wall displays). Their credentials live with the other credentials in
 * core/access/credential-repository.ts.
 *
 * | pattern | key condition | index |
 * | --- | --- | --- |
 * | one kiosk of a company by id | `pk = C#{companyId}#kiosks`, `sk = {kioskId}` | table |
 * | a company's kiosks (generic list, by site) | `gsi1pk = C#{companyId}#kiosks#assetId#{assetId}` | gsi1 |
 */
import { findResource } from '../../shared/system/resources.ts';
import type { CollectionRef } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

export function kiosksRef(companyId: string): CollectionRef {
  const decl = findResource('kiosks');
  if (!decl) throw new Error('The kiosks resource is not declared');
  return {
    pk: keys.collection({ companyId }, 'kiosks'),
    indexes: decl.indexes ?? [],
    searchFields: decl.searchFields,
  };
}
