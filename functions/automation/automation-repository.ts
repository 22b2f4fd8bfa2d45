/**
 * | pattern                           | key condition                                                       | index |
 * | --------------------------------- | ------------------------------------------------------------------- | ----- |
 * | one automation / change it        | pk = C#{companyId}#automations, sk = automationId                   | table |
 * | every automation of a company     | pk = C#{companyId}#automations                                      | table |
 * | one run / write a run / change it | pk = C#{companyId}#automation-runs, sk = runId                      | table |
 * | remove a run that never started   | pk = C#{companyId}#automation-runs, sk = runId                      | table |
 * | an automation's runs              | gsi1pk = C#{companyId}#automation-runs#automationId#{automationId}  | gsi1  |
 */
import type { ImportType } from '../../shared/imports/import-mapping.ts';
import type {
  AutomationSchedule,
  AutomationTemplateId,
  DataRequestKind,
} from '../../shared/schemas/automation.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  deleteRaw,
  getItem,
  listItems,
  putItem,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { storedRecord } from '../core/data/stored-record.ts';

export type AutomationRunStatus = 'pending' | 'running' | 'retrying' | 'succeeded' | 'failed';

export interface FolderFile {
  key: string;
  fileName: string;
  contentType: string;
  at: string;
}

/** A type, not an interface: it is a stored item (a record of its fields) as it is. */
export type Automation = {
  _id: string;
  name: string;
  templateId: AutomationTemplateId;
  supplierId?: string;
  schedule: AutomationSchedule;
  enabled: boolean;
  ownerSub?: string;
  /** The file last handed an upload URL, which the next folder-import run takes. */
  folderFile?: FolderFile;
  /** What a spreadsheet dropped into the folder holds; read from its columns when not set. */
  importType?: ImportType;
  /** A data request's contact, the site it is about and what it asks for. */
  contactEmail?: string;
  contactName?: string;
  assetId?: string;
  requestKind?: DataRequestKind;
  lastRunId?: string;
  lastRunStatus?: AutomationRunStatus;
  lastRunAt?: string;
  createdBy?: string;
};

export type AutomationRun = {
  _id: string;
  companyId: string;
  automationId: string;
  automationName: string;
  templateId: AutomationTemplateId;
  status: AutomationRunStatus;
  trigger: 'manual' | 'schedule';
  /** The connector run doing the work of a portal-bills or meter-data run. */
  scraperRunId?: string;
  /** The import a spreadsheet dropped into the folder went to. */
  importId?: string;
  counts: { listed: number; fetched: number; skipped: number; failed: number };
  attempts: number;
  attachment?: { key: string; fileName: string; contentType: string };
  errorCode?: string;
  error?: string;
  startedAt?: string;
  finishedAt?: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
};

const automationsRef = (companyId: string): CollectionRef => declaredRef('automations', { companyId });
const runsRef = (companyId: string): CollectionRef => declaredRef('automation-runs', { companyId });

/**
 * Typed as stored, with no field required: items written by hand, an older release or the generic routes
 * may lack fields the writers here always set, and must stay readable (answered 404 or refused, not 500).
 */
const toAutomation = (item: StoredItem): Automation => storedRecord<Automation>('automation', item, []);
const toRun = (item: StoredItem): AutomationRun => storedRecord<AutomationRun>('automation run', item, []);

export async function getAutomation(companyId: string, id: string): Promise<Automation | undefined> {
  const item = await getItem(automationsRef(companyId).pk, id);
  return item && item.deleted !== true ? toAutomation(item) : undefined;
}

export async function companyAutomations(companyId: string): Promise<Automation[]> {
  return (await queryAll(automationsRef(companyId).pk)).filter((i) => i.deleted !== true).map(toAutomation);
}

export async function changeAutomation(
  companyId: string,
  id: string,
  change: (a: Automation) => Automation,
): Promise<void> {
  await changeItem(automationsRef(companyId), id, (item) =>
    item.deleted === true ? undefined : change(toAutomation(item)),
  );
}

export async function getAutomationRun(companyId: string, id: string): Promise<AutomationRun | undefined> {
  const item = await getItem(runsRef(companyId).pk, id);
  return item ? toRun(item) : undefined;
}

export const createAutomationRun = (run: AutomationRun) =>
  putItem(runsRef(run.companyId), run, { mustNotExist: true });

export const removeAutomationRun = (companyId: string, id: string) => deleteRaw(runsRef(companyId).pk, id);

export async function changeAutomationRun(
  companyId: string,
  id: string,
  change: (run: AutomationRun) => AutomationRun | undefined,
): Promise<AutomationRun | undefined> {
  const out = await changeItem(runsRef(companyId), id, (item) => {
    return change(toRun(item));
  });
  return out ? toRun(out.after) : undefined;
}

/** An automation's runs, newest first. */
export async function runsOfAutomation(companyId: string, automationId: string, limit = 20) {
  const page = await listItems(runsRef(companyId), { filters: { automationId }, limit: 1000, skip: 0 });
  return page.data
    .map(toRun)
    .sort((a, b) => b._id.localeCompare(a._id))
    .slice(0, limit);
}

// Runs are written by the automation worker only: the generic writes are refused.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    'automation-runs': AutomationRun;
  }
}
