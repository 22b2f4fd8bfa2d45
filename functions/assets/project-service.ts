import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { documentUploadSchema } from '../../shared/schemas/asset-documents.ts';
import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { headObject } from '../core/adapters/asset-storage.ts';
import { bucketName } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, listItems, putItem, type StoredItem } from '../core/data/item-repository.ts';
import { forbidden, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { childRef, declaredResource, resourceRef } from '../core/resources/resource-refs.ts';
import { downloadLink, uploadTicket } from './asset-document-service.ts';

/** A project the caller may see (else 404, as for one that does not exist) and, if asked, change (else 403). */
async function loadProject(ctx: WithParams<'id'>, access: 'read' | 'write'): Promise<StoredItem> {
  const resource = declaredResource('projects');
  const project = await getItem(resourceRef(ctx.caller.companyId, 'projects').pk, ctx.params.id);
  if (!project) throw notFound();
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  if (!(await mayAccessItem(resource, ctx.caller, project, 'read', resolver))) throw notFound();
  if (access === 'write' && !(await mayAccessItem(resource, ctx.caller, project, 'write', resolver)))
    throw forbidden();
  return project;
}

const documentsRef = (companyId: string, projectId: string) =>
  childRef(companyId, 'projects', projectId, 'documents');

async function children(companyId: string, projectId: string, sub: string) {
  const found = await listItems(childRef(companyId, 'projects', projectId, sub), {
    filters: {},
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  return found.data;
}

/** GET /projects/{id}: the project with its tasks (taskId) and documents (documentId). */
const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const project = await loadProject(ctx, 'read');
  const [tasks, documents] = await Promise.all([
    children(ctx.caller.companyId, project._id, 'tasks'),
    children(ctx.caller.companyId, project._id, 'documents'),
  ]);
  return {
    body: {
      ...project,
      tasks: tasks.map((t) => ({ ...t, taskId: t._id })),
      documents: documents.map((d) => ({ ...d, documentId: d._id })),
    },
  };
});

/**
 * POST /projects/{id}/documents/upload: the document is listed on the project at once and its file goes
 * to the signed URL; until the file is there, downloading it answers that it has not been uploaded.
 */
const upload = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const project = await loadProject(ctx, 'write');
  const input = parseOrThrow(documentUploadSchema, ctx.body ?? {});
  const ticket = await uploadTicket(`projects/${project._id}/documents/`, input);
  const now = new Date().toISOString();
  const document: StoredItem = {
    _id: ticket.documentId,
    companyId: ctx.caller.companyId,
    projectId: project._id,
    key: ticket.key,
    name: input.name || input.fileName,
    fileName: input.fileName,
    contentType: input.contentType,
    size: input.size,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putItem(documentsRef(ctx.caller.companyId, project._id), document, { mustNotExist: true });
  return { status: 201, body: { ...ticket, document: { ...document, documentId: document._id } } };
});

async function loadDocument(ctx: WithParams<'id' | 'documentId'>, access: 'read' | 'write') {
  const project = await loadProject(ctx, access);
  const ref = documentsRef(ctx.caller.companyId, project._id);
  const doc = await getItem(ref.pk, ctx.params.documentId);
  if (!doc || doc.deleted === true) throw notFound();
  return { ref, doc };
}

const remove = operation({ params: ['id', 'documentId'] }, async (ctx): Promise<OpResult> => {
  const { ref, doc } = await loadDocument(ctx, 'write');
  const changed = await changeItem(ref, doc._id, (current) => ({
    ...current,
    deleted: true,
    deletedAt: new Date().toISOString(),
    deletedBy: ctx.caller.sub,
  }));
  if (!changed) throw notFound();
  return { body: changed.after };
});

const download = operation({ params: ['id', 'documentId'] }, async (ctx): Promise<OpResult> => {
  const { doc } = await loadDocument(ctx, 'read');
  if (!(await headObject(bucketName('documents'), String(doc.key))))
    throw notFound(ASSET_MESSAGES.fileMissing);
  return { body: await downloadLink(doc) };
});

export const PROJECT_OPERATIONS: Operations = {
  'projects.get': get,
  'projects.documents.upload': upload,
  'projects.documents.delete': remove,
  'projects.documents.download': download,
};
