/**
 * | pattern                              | key condition                                     | index |
 * | ------------------------------------ | ------------------------------------------------- | ----- |
 * | one of a company's report templates  | pk = C#{companyId}#report-templates, sk = id      | table |
 * | create, change, list and delete them | generic calls of the declared collection          | table |
 */
import { type CustomTemplate, customTemplateSchema } from '../../shared/reports/custom-templates.ts';
import { declaredRef, getItem, type StoredItem } from '../core/data/item-repository.ts';

const templatesRef = (companyId: string) => declaredRef('report-templates', { companyId });

/**
 * A live template of the company, and what it is once checked: a template written otherwise than by the
 * builder (an import, a generic bulk write) may not be one a report can be built from.
 */
export async function findReportTemplate(
  companyId: string,
  id: string,
): Promise<{ item: StoredItem; template?: CustomTemplate } | undefined> {
  const item = await getItem(templatesRef(companyId).pk, id);
  if (!item || item.deleted === true) return undefined;
  const parsed = customTemplateSchema.safeParse(item);
  return parsed.success ? { item, template: parsed.data } : { item };
}
