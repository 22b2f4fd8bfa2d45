import * as z from 'zod/mini';
import { PERMISSION_NAMES, type PermissionName } from '../../shared/access/permission-names.ts';
import { REQUIRED_MESSAGE } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import {
  deleteMachine,
  listMachines,
  type MachineRecord,
  putMachine,
} from '../core/access/credential-repository.ts';
import { forgetCredential } from '../core/access/credential-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { digestOf, newSecret } from '../core/lib/secrets.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';

/** A machine renders pages and reads data; it can never administer anything. */
const NEVER_FOR_MACHINES: readonly PermissionName[] = [
  'admin',
  'company_owner',
  'company_admin',
  'api_access_only',
];
const MACHINE_PERMISSIONS = PERMISSION_NAMES.filter((p) => !NEVER_FOR_MACHINES.includes(p));

const createBody = onFirstUse(() =>
  z.object({
    name: z.string().check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(200)),
    permissions: z._default(z.array(z.enum(MACHINE_PERMISSIONS as [PermissionName, ...PermissionName[]])), [
      'company_user',
    ]),
  }),
);

const view = (m: MachineRecord) => ({
  _id: m.machineId,
  name: m.name,
  permissions: m.permissions,
  createdAt: m.createdAt,
  createdBy: m.createdBy,
});

const list = operation({}, async (ctx): Promise<OpResult> => {
  const data = (await listMachines(ctx.caller.companyId)).map(view);
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

/** A machine id and key for `X-Key: id:key`; the key is in this answer only. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const input = parseOrThrow(createBody, ctx.body);
  const machineId = newId();
  const key = newSecret();
  const record = {
    machineId,
    companyId: ctx.caller.companyId,
    name: input.name,
    permissions: input.permissions,
    createdAt: new Date().toISOString(),
    createdBy: ctx.caller.sub,
  };
  await putMachine(record, digestOf(key));
  await writeActivity(ctx.caller, {
    type: 'create',
    model: 'machines',
    modelId: machineId,
    message: input.name,
  });
  return {
    status: 201,
    body: { ...view(record), machineId, key, xKey: `${machineId}:${key}` },
    headers: { 'cache-control': 'no-store' },
  };
});

const revoke = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const id = ctx.params.id;
  const found = (await listMachines(ctx.caller.companyId)).find((m) => m._id === id);
  if (!found) throw notFound();
  await deleteMachine(ctx.caller.companyId, id);
  forgetCredential('machine', id);
  await writeActivity(ctx.caller, { type: 'delete', model: 'machines', modelId: id });
  return { status: 204 };
});

export const MACHINE_OPERATIONS: Operations = {
  'machines.list': list,
  'machines.create': create,
  'machines.revoke': revoke,
};
