/**
 * | pattern                                  | key condition                      | index |
 * | ---------------------------------------- | ---------------------------------- | ----- |
 * | every country                            | pk = G#countries                   | table |
 * | every company (for the staff asset map)  | pk = G#companies                   | table |
 * | where each asset of a company stands     | pk = C#{companyId}#assets, fields  | table |
 *
 * Lookups that live in the table rather than in the release: countries, and what the staff map shows of
 * every company's assets.
 */
import type * as z from 'zod';
import type { assetSchema } from '../../shared/schemas/asset.ts';
import type { countrySchema } from '../../shared/schemas/country.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { queryAll } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredCountry = Stored<z.input<typeof countrySchema>>;

const MAP_FIELDS = ['siteName', 'assetType', 'address', 'geocoordinates', 'status'] as const;

/** What the staff map shows of an asset: only these fields are read. */
export type MappedAsset = Stored<Partial<Pick<z.input<typeof assetSchema>, (typeof MAP_FIELDS)[number]>>>;

/** A company as the staff map names it. */
export type NamedCompany = { _id: string; name: string; deleted?: boolean };

/** Every country, deleted ones included: the list filters them by its query. */
export async function listCountries(): Promise<StoredCountry[]> {
  return (await queryAll(keys.collection({}, 'countries'))).map((item) =>
    storedRecord<StoredCountry>('country', item, []),
  );
}

/** Every company that is not deleted, by id and name. */
export async function liveCompanies(): Promise<NamedCompany[]> {
  return (await queryAll(keys.collection({}, 'companies')))
    .filter((c) => c.deleted !== true)
    .map((item) => storedRecord<NamedCompany>('company', item, ['name']));
}

/** Where each live asset of a company stands, with its type and status. */
export async function mappedAssets(companyId: string): Promise<MappedAsset[]> {
  return (await projectAll(keys.collection({ companyId }, 'assets'), MAP_FIELDS)).map((item) =>
    storedRecord<MappedAsset>('asset', item, []),
  );
}
