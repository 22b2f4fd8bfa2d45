import type { SearchType } from '../../../shared/schemas/register.ts';
import type { StoredItem } from '../data/item-repository.ts';
import { objectOf, objectsOf } from '../lib/stored-values.ts';

/**
 * How items become searchable text. A field is indexed as the compacted remainder from each of its word
 * starts ("128 High Street" → "128highstreet", "highstreet", "street"), so a query matches as a prefix of
 * a term: "high str", "EC3N 1DL" and "ec3n1dl" all find what they should with one key lookup.
 */

/** Bumped whenever terms or documents change shape: every company's index is then rebuilt on next use. */
export const SEARCH_INDEX_VERSION = '1';
/** The key of an index partition is this many leading characters of a term. */
export const PREFIX_LENGTH = 3;
const MAX_TERM_LENGTH = 40;

/**
 * 0: the start of a name, postcode or meter point number; 1: a later word of one of those;
 * 2: any other field (street, town, company number). Lower tiers rank first.
 */
export type Tier = 0 | 1 | 2;
export const TIERS: readonly Tier[] = [0, 1, 2];

export interface IndexTerm {
  term: string;
  tier: Tier;
}

/** Lower case, accents dropped, anything but letters and digits turned to spaces. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The form a query is matched in: normalised, without spaces. */
export function compact(text: string): string {
  return normalise(text).replace(/ /g, '');
}

function termsOf(value: unknown, first: Tier, rest: Tier): IndexTerm[] {
  if (typeof value !== 'string' || value.trim() === '') return [];
  const words = normalise(value).split(' ').filter(Boolean);
  const out: IndexTerm[] = [];
  for (let i = 0; i < words.length; i++) {
    const term = words.slice(i).join('').slice(0, MAX_TERM_LENGTH);
    // A query has at least PREFIX_LENGTH characters, so a shorter term could never match.
    if (term.length >= PREFIX_LENGTH) out.push({ term, tier: i === 0 ? first : rest });
  }
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function address(item: StoredItem): Record<string, unknown> {
  return objectOf(item.address);
}

/** "street, town, region, postcode", as result lists show an address. */
export function addressStringOf(item: StoredItem): string {
  const a = address(item);
  return ['streetAddress', 'locality', 'region', 'postCode']
    .map((k) => str(a[k]))
    .filter((v): v is string => v !== undefined)
    .join(', ');
}

/** The primary picture's thumbnail (or the picture), else the first picture's. */
export function primaryImageUrlOf(item: StoredItem): string | null {
  const images = objectsOf(item.images);
  const image = images.find((i) => i?.isPrimary === true) ?? images[0];
  return image ? (str(image.thumbUrl) ?? str(image.url) ?? null) : null;
}

/** The searchable terms of an item, each once, at its best tier. */
export function indexTermsOf(type: SearchType, item: StoredItem): IndexTerm[] {
  const terms: IndexTerm[] = [];
  if (type === 'entity') {
    terms.push(...termsOf(item.legalName, 0, 1), ...termsOf(item.companyNumber, 2, 2));
  } else if (type === 'asset') {
    const a = address(item);
    terms.push(
      ...termsOf(item.siteName, 0, 1),
      ...termsOf(a.postCode, 0, 1),
      ...termsOf(a.streetAddress, 2, 2),
      ...termsOf(a.locality, 2, 2),
    );
  } else {
    terms.push(...termsOf(item.name, 0, 1), ...termsOf(item.meterPointNumber, 0, 1));
  }
  const best = new Map<string, Tier>();
  for (const t of terms) {
    const known = best.get(t.term);
    if (known === undefined || t.tier < known) best.set(t.term, t.tier);
  }
  return [...best].map(([term, tier]) => ({ term, tier }));
}

/** What a result needs of its item, kept on the index entry so a search reads no items. */
export function searchDocOf(type: SearchType, item: StoredItem): Record<string, unknown> {
  if (type === 'entity') {
    return { legalName: item.legalName, parentEntityId: str(item.parentEntityId) ?? null };
  }
  if (type === 'asset') {
    return {
      siteName: item.siteName,
      addressString: addressStringOf(item),
      primaryImageUrl: primaryImageUrlOf(item),
      entityId: str(item.entityId) ?? null,
    };
  }
  return {
    name: item.name,
    type: item.type,
    meterPointNumber: item.meterPointNumber,
    status: item.status,
    assetId: str(item.assetId) ?? null,
    entityId: str(item.entityId) ?? null,
    parentAccountId: str(item.parentAccountId) ?? null,
  };
}

/** The resource each search type is stored as. */
export const RESOURCE_OF: Readonly<Record<SearchType, 'entities' | 'assets' | 'accounts'>> = {
  entity: 'entities',
  asset: 'assets',
  account: 'accounts',
};

export function searchTypeOf(resource: string): SearchType | undefined {
  if (resource === 'entities') return 'entity';
  if (resource === 'assets') return 'asset';
  if (resource === 'accounts') return 'account';
  return undefined;
}
