/**
 * | pattern                                     | key condition                                                       | index |
 * | ------------------------------------------- | ------------------------------------------------------------------- | ----- |
 * | one run / write a run / change it           | pk = C#{companyId}#scraper-runs, sk = runId                         | table |
 * | a supplier's runs                           | gsi1pk = C#{companyId}#scraper-runs#supplierId#{supplierId}         | gsi1  |
 * | one step's log of a run / write it          | pk = C#{companyId}#scraper-runs#{runId}#logs, sk = logId            | table |
 * | a login's sealed password / write, remove   | pk = C#{companyId}#supplier-portal-secrets, sk = supplierId         | table |
 * | a login's connector state / change it       | pk = C#{companyId}#connector-state, sk = supplierId                 | table |
 * | every connector state of a company          | pk = C#{companyId}#connector-state                                  | table |
 * | a meter's last interval held / write it     | pk = C#{companyId}#connector-state, sk = meter#{accountId}          | table |
 * | a bill number a connector stored / write it | pk = C#{companyId}#connector-state, sk = bill#{supplierId}#{number} | table |
 * | a company's accounts                        | pk = C#{companyId}#accounts                                         | table |
 * | tell members (notifications, one each)      | pk = C#{companyId}#notifications, sk = id                           | table |
 * | a company (its supplier-portal logins)      | pk = G#companies, sk = companyId                                    | table |
 */
import type { RunCounts, RunStatus } from '../../shared/schemas/responses/connectors.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  deleteRaw,
  getItem,
  listItems,
  putItem,
  putItemIf,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { storedRecord } from '../core/data/stored-record.ts';

export type { RunCounts, RunStatus };
export type RunTrigger = 'manual' | 'schedule';

export interface RunLogRef {
  _id: string;
  step: string;
  status: 'running' | 'succeeded' | 'failed';
  lines: number;
  at: string;
}

/** Types, not interfaces: each is a stored item (a record of its fields) as it is. */
export type ScraperRun = {
  _id: string;
  companyId: string;
  supplierId: string;
  supplierName: string;
  status: RunStatus;
  trigger: RunTrigger;
  counts: RunCounts;
  logs: RunLogRef[];
  error?: { type: string; message: string };
  /** The newest bill's issue date the run saw: the next run lists bills from that day on. */
  newestIssuedOn?: string;
  startedAt?: string;
  finishedAt?: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
};

export type ConnectorState = {
  supplierId: string;
  /** Set when the portal refused the stored password: no run starts until it is set again. */
  blocked?: { reason: 'wrong-password'; at: string; runId: string };
  lastRunId?: string;
  lastStatus?: RunStatus;
  lastFinishedAt?: string;
  newestIssuedOn?: string;
};

const runsRef = (companyId: string): CollectionRef => declaredRef('scraper-runs', { companyId });
const logsPk = (companyId: string, runId: string) =>
  keys.subCollection({ companyId }, 'scraper-runs', runId, 'logs');
const secretsRef = (companyId: string): CollectionRef => ({
  pk: keys.collection({ companyId }, 'supplier-portal-secrets'),
  indexes: [],
  searchFields: [],
});
const stateRef = (companyId: string): CollectionRef => ({
  pk: keys.collection({ companyId }, 'connector-state'),
  indexes: [],
  searchFields: [],
});

/**
 * Typed as stored, with no field required: items written by hand, an older release or the generic routes
 * may lack fields the writers here always set, and must stay readable (answered 404 or refused, not 500).
 */
const toRun = (item: StoredItem): ScraperRun => storedRecord<ScraperRun>('connector run', item, []);
const toState = (item: StoredItem): ConnectorState =>
  storedRecord<ConnectorState>('connector state', item, []);

export const getRun = async (companyId: string, runId: string) => {
  const item = await getItem(runsRef(companyId).pk, runId);
  return item ? toRun(item) : undefined;
};

export const createRun = (run: ScraperRun) => putItem(runsRef(run.companyId), run, { mustNotExist: true });

/** Changes a run as stored now; `change` answers the whole run, or undefined to leave it. */
export async function changeRun(
  companyId: string,
  runId: string,
  change: (run: ScraperRun) => ScraperRun | undefined,
): Promise<ScraperRun | undefined> {
  const out = await changeItem(runsRef(companyId), runId, (item) => change(toRun(item)));
  return out ? toRun(out.after) : undefined;
}

/** The runs of one supplier login, newest first. */
export async function runsOfSupplier(
  companyId: string,
  supplierId: string,
  limit = 50,
): Promise<ScraperRun[]> {
  const page = await listItems(runsRef(companyId), { filters: { supplierId }, limit: 1000, skip: 0 });
  return page.data
    .map(toRun)
    .sort((a, b) => b._id.localeCompare(a._id))
    .slice(0, limit);
}

export async function getRunLog(
  companyId: string,
  runId: string,
  logId: string,
): Promise<string[] | undefined> {
  const item = await getItem(logsPk(companyId, runId), logId);
  return Array.isArray(item?.lines) ? item.lines.map(String) : undefined;
}

export async function putRunLog(companyId: string, runId: string, logId: string, lines: readonly string[]) {
  await putItem(
    { pk: logsPk(companyId, runId), indexes: [], searchFields: [] },
    { _id: logId, lines: [...lines] },
  );
}

export async function getSealedPassword(companyId: string, supplierId: string): Promise<string | undefined> {
  const item = await getItem(secretsRef(companyId).pk, supplierId);
  return typeof item?.sealed === 'string' ? item.sealed : undefined;
}

export const putSealedPassword = (companyId: string, supplierId: string, sealed: string) =>
  putItem(secretsRef(companyId), { _id: supplierId, sealed, setAt: new Date().toISOString() });

export const deleteSealedPassword = (companyId: string, supplierId: string) =>
  deleteRaw(secretsRef(companyId).pk, supplierId);

export async function getConnectorState(companyId: string, supplierId: string): Promise<ConnectorState> {
  const item = await getItem(stateRef(companyId).pk, supplierId);
  return item ? toState(item) : { supplierId };
}

export async function connectorStates(companyId: string): Promise<ConnectorState[]> {
  return (await queryAll(stateRef(companyId).pk))
    .filter((i) => !i._id.startsWith('meter#') && !i._id.startsWith('bill#'))
    .map(toState);
}

/** Changes a login's state, creating it first when there is none. */
export async function changeConnectorState(
  companyId: string,
  supplierId: string,
  change: (state: ConnectorState) => ConnectorState,
): Promise<void> {
  const ref = stateRef(companyId);
  await putItemIf(ref, { _id: supplierId, supplierId }, { ConditionExpression: 'attribute_not_exists(pk)' });
  await changeItem(ref, supplierId, (item) => ({
    ...change(toState(item)),
    _id: supplierId,
  }));
}

export async function meterCursor(companyId: string, accountId: string): Promise<string | undefined> {
  const item = await getItem(stateRef(companyId).pk, `meter#${accountId}`);
  return typeof item?.heldUntil === 'string' ? item.heldUntil : undefined;
}

export const putMeterCursor = (companyId: string, accountId: string, heldUntil: string) =>
  putItem(stateRef(companyId), { _id: `meter#${accountId}`, accountId, heldUntil });

/** A supplier's meter as the smart-meter fetch reads it; meters stored without the numbers lack them. */
export interface SupplierMeter {
  _id: string;
  /** The site it measures. */
  assetId?: string;
  meterPointNumber?: string;
  meterSerialNumber?: string;
}

const textOrNone = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The company's live accounts of one supplier. */
export async function accountsOfSupplier(companyId: string, supplierId: string): Promise<SupplierMeter[]> {
  return (await queryAll(declaredRef('accounts', { companyId }).pk))
    .filter((a) => a.supplierId === supplierId && a.deleted !== true)
    .map((a) => ({
      _id: a._id,
      assetId: textOrNone(a.assetId),
      meterPointNumber: textOrNone(a.meterPointNumber),
      meterSerialNumber: textOrNone(a.meterSerialNumber),
    }));
}

export async function putNotifications(companyId: string, items: readonly StoredItem[]): Promise<void> {
  const ref = declaredRef('notifications', { companyId });
  for (const item of items) await putItem(ref, item);
}

export interface PortalLogin {
  username: string;
  enabled: boolean;
}

/** A company's supplier-portal logins, as its settings hold them (user name and switch; never the password). */
export async function portalLogins(companyId: string): Promise<Record<string, PortalLogin>> {
  const company = await getItem(declaredRef('companies', {}).pk, companyId);
  const settings = (company?.settings ?? {}) as { supplierPortals?: Record<string, PortalLogin> };
  return settings.supplierPortals ?? {};
}

const billKey = (supplierId: string, number: string) =>
  `bill#${supplierId}#${number.replace(/[^A-Za-z0-9]/g, '').toUpperCase()}`;

/** The capture a connector stored a supplier's bill of this number under, if it did. */
export async function billNumberHolder(companyId: string, supplierId: string, number: string) {
  const item = await getItem(stateRef(companyId).pk, billKey(supplierId, number));
  return typeof item?.captureId === 'string' ? item.captureId : undefined;
}

export const putBillNumber = (companyId: string, supplierId: string, number: string, captureId: string) =>
  putItem(stateRef(companyId), { _id: billKey(supplierId, number), captureId });

// Runs are written by the connector worker only: the generic writes are refused.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    'scraper-runs': ScraperRun;
  }
}
