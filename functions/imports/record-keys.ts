import type { RecordImportType } from '../../shared/imports/import-mapping.ts';
import { parseDate } from '../../shared/imports/import-values.ts';
import { allAccounts, contractsRef } from '../accounts/index.ts';
import { type CollectionRef, queryAll, type StoredItem } from '../core/data/item-repository.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { resourceRef } from '../core/resources/resource-refs.ts';

/**
 * How a row of an updatable type names an item that already exists (its natural key), and how such an
 * item reads as a row, so a row that gives only some fields is judged with the item's other fields.
 */

export interface KeyedItems {
  /** The key a row names its item by; undefined when it names none, so the row makes a new item. */
  keyOfRow(values: Readonly<Record<string, string>>): string | undefined;
  /** The live items a key names (more than one means the row cannot say which). */
  find(key: string): readonly StoredItem[];
  refOf(item: StoredItem): CollectionRef;
}

export interface RecordKeys {
  load(companyId: string): Promise<KeyedItems>;
  /** The item as the cells of a row of the file. */
  valuesOf(item: StoredItem): Record<string, string>;
  /** The item fields each column writes, where they are not the column's own name. */
  fieldsOf: Readonly<Record<string, readonly string[]>>;
  /** A column that names a linked item by name, and the id cell it stands in for. */
  replaces?: Readonly<Record<string, string>>;
  /**
   * Columns whose cells may spell one value in several ways (a serial with or without spaces): a cell
   * that spells the stored value is no change, and the stored spelling stays.
   */
  spellings?: Readonly<Record<string, (cell: string) => string>>;
}

const lower = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toLowerCase();
const compact = (s: unknown) => String(s ?? '').replace(/\s+/g, '');
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** Only the cells that have a value, as a file's row has them. */
function cells(entries: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(entries)) {
    const t = text(v);
    if (t !== undefined && t !== '') out[k] = t;
  }
  return out;
}

const addressCells = (item: StoredItem) => {
  const a = objectOf(item.address);
  return {
    streetAddress: a.streetAddress,
    locality: a.locality,
    region: a.region,
    postCode: a.postCode,
    country: a.country,
  };
};
const ADDRESS_FIELDS = {
  streetAddress: ['address'],
  locality: ['address'],
  region: ['address'],
  postCode: ['address'],
  country: ['address'],
};

function indexBy(items: readonly StoredItem[], keysOf: (item: StoredItem) => (string | undefined)[]) {
  const byKey = new Map<string, StoredItem[]>();
  for (const item of items) {
    if (item.deleted === true) continue;
    for (const key of new Set(keysOf(item))) {
      if (!key) continue;
      const list = byKey.get(key);
      if (list) list.push(item);
      else byKey.set(key, [item]);
    }
  }
  return (key: string) => byKey.get(key) ?? [];
}

const dayOf = (v: unknown) => {
  const t = text(v);
  return t === undefined ? undefined : (parseDate(t) ?? t.slice(0, 10));
};

/** An MPAN's 13-digit core is what meters are stored by; a full 21-digit MPAN ends with it. */
const meterKeys = (number: unknown) => {
  const n = compact(number);
  return n === '' ? [] : [`mpn:${n}`];
};

const SITES: RecordKeys = {
  async load(companyId) {
    const ref = resourceRef(companyId, 'assets');
    const find = indexBy(await queryAll(ref.pk), (s) => [`name:${lower(s.siteName)}`]);
    return {
      keyOfRow: (v) => (v.siteName ? `name:${lower(v.siteName)}` : undefined),
      find,
      refOf: () => ref,
    };
  },
  valuesOf: (s) =>
    cells({
      siteName: s.siteName,
      entityId: s.entityId,
      assetType: s.assetType,
      status: s.status,
      ...addressCells(s),
      floorArea: s.floorArea,
      // Floor areas are kept in square metres whatever unit they were given in.
      ...(s.floorArea !== undefined ? { floorAreaUnit: 'm2' } : {}),
    }),
  fieldsOf: { ...ADDRESS_FIELDS, entity: ['entityId'], floorAreaUnit: ['floorArea', 'floorAreaUnit'] },
  replaces: { entity: 'entityId' },
};

const ENTITIES: RecordKeys = {
  async load(companyId) {
    const ref = resourceRef(companyId, 'entities');
    const find = indexBy(await queryAll(ref.pk), (e) => [
      `name:${lower(e.legalName)}`,
      e.companyNumber ? `number:${lower(e.companyNumber)}` : undefined,
    ]);
    return {
      // By company number when an entity has it, else by legal name (the number may be what the file adds).
      keyOfRow: (v) => {
        const number = v.companyNumber ? `number:${lower(v.companyNumber)}` : undefined;
        if (number && find(number).length > 0) return number;
        return v.legalName ? `name:${lower(v.legalName)}` : number;
      },
      find,
      refOf: () => ref,
    };
  },
  valuesOf: (e) =>
    cells({
      legalName: e.legalName,
      companyNumber: e.companyNumber,
      parentEntityId: e.parentEntityId,
      ...(e.address ? addressCells(e) : {}),
    }),
  fieldsOf: { ...ADDRESS_FIELDS, parentEntity: ['parentEntityId'] },
  replaces: { parentEntity: 'parentEntityId' },
};

const METERS: RecordKeys = {
  async load(companyId) {
    const ref = resourceRef(companyId, 'accounts');
    const accounts = await allAccounts(companyId);
    const find = indexBy(accounts, (a) => [
      ...meterKeys(a.meterPointNumber),
      ...(a.meterSerialNumber ? [`serial:${lower(compact(a.meterSerialNumber))}`] : []),
    ]);
    const byNumber = (given: string) => {
      const n = compact(given);
      // A full MPAN is found by its core when no meter is stored by the full number.
      return find(`mpn:${n}`).length > 0 || n.length <= 13 ? `mpn:${n}` : `mpn:${n.slice(-13)}`;
    };
    return {
      // By MPAN or MPRN when the row gives one that is stored, else by the serial on the meter (smart
      // meter data and older registers often know a meter only by it); a new number makes a new meter.
      keyOfRow: (v) => {
        const number = v.meterPointNumber ? byNumber(v.meterPointNumber) : undefined;
        if (number && find(number).length > 0) return number;
        const serial = v.meterSerialNumber ? `serial:${lower(compact(v.meterSerialNumber))}` : undefined;
        if (serial && find(serial).length > 0) return serial;
        return number ?? serial;
      },
      find,
      refOf: () => ref,
    };
  },
  valuesOf: (a) =>
    cells({
      name: a.name,
      assetId: a.assetId,
      type: a.type,
      meterPointNumber: a.meterPointNumber,
      meterSerialNumber: a.meterSerialNumber,
      unit: a.unit,
      supplierId: a.supplierId,
      parentAccountId: a.parentAccountId,
      status: a.status,
      tags: Array.isArray(a.tags) ? a.tags.join(';') : undefined,
    }),
  fieldsOf: { site: ['assetId'] },
  replaces: { site: 'assetId' },
  spellings: { meterSerialNumber: (s) => lower(compact(s)), meterPointNumber: compact },
};

/** A contract is named by its meter and its start date: a meter has one contract starting on a day. */
const CONTRACTS: RecordKeys = {
  async load(companyId) {
    const accounts = (await allAccounts(companyId)).filter((a) => a.deleted !== true);
    const byNumber = indexBy(accounts, (a) => meterKeys(a.meterPointNumber));
    const contracts: StoredItem[] = [];
    await inPool(accounts, 16, async (a) => {
      for (const c of await queryAll(contractsRef(companyId, a._id).pk))
        contracts.push({ ...c, accountId: c.accountId ?? a._id });
    });
    const find = indexBy(contracts, (c) => [`${String(c.accountId)}|${dayOf(c.startDate)}`]);
    const meterOf = (v: Readonly<Record<string, string>>) => {
      if (v.accountId) return v.accountId.trim();
      if (!v.meterPointNumber) return undefined;
      const n = compact(v.meterPointNumber);
      const found = byNumber(`mpn:${n}`).length > 0 ? byNumber(`mpn:${n}`) : byNumber(`mpn:${n.slice(-13)}`);
      return found.length === 1 ? found[0]?._id : undefined;
    };
    return {
      keyOfRow: (v) => {
        const meter = meterOf(v);
        const day = v.startDate ? dayOf(v.startDate) : undefined;
        return meter && day ? `${meter}|${day}` : undefined;
      },
      find,
      refOf: (c) => contractsRef(companyId, String(c.accountId)),
    };
  },
  valuesOf: (c) =>
    cells({
      accountId: c.accountId,
      name: c.name,
      reference: c.reference,
      supplierId: c.supplierId,
      startDate: dayOf(c.startDate),
      endDate: dayOf(c.endDate),
      status: c.status,
      isRenewable: typeof c.isRenewable === 'boolean' ? (c.isRenewable ? 'yes' : 'no') : undefined,
      regoBacked: typeof c.regoBacked === 'boolean' ? (c.regoBacked ? 'yes' : 'no') : undefined,
      notes: c.notes,
    }),
  fieldsOf: { meterPointNumber: [], accountId: [] },
};

export const RECORD_KEYS: Readonly<Partial<Record<RecordImportType, RecordKeys>>> = {
  sites: SITES,
  entities: ENTITIES,
  meters: METERS,
  contracts: CONTRACTS,
};
