import type { Caller } from '../../../shared/access/caller.ts';
import { findResource } from '../../../shared/system/resources.ts';
import { collectionRef, putItem } from '../data/item-repository.ts';
import { newId } from '../lib/ids.ts';

export interface Activity {
  type: string;
  model: string;
  modelId?: string;
  message?: string;
  batchId?: string;
}

/** The company activity log: who changed what, when. Stored as the company's `logs` resource. */
export async function writeActivity(caller: Caller, activity: Activity): Promise<void> {
  const logs = findResource('logs');
  if (!logs) throw new Error('The logs resource is not declared');
  const now = new Date().toISOString();
  await putItem(collectionRef({ companyId: caller.companyId }, logs), {
    _id: newId(),
    companyId: caller.companyId,
    userSub: caller.sub,
    userName: caller.name,
    ...activity,
    createdAt: now,
    updatedAt: now,
  });
}
