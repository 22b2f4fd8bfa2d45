import type { RoutePermission } from '../../access/permission-names.ts';
import type { AuthKind } from '../../access/route-rules.ts';
import { invoicePreviewQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import { SUPPLIERS_AREA_RESOURCES, SUPPLIERS_RESOURCE } from '../resources/suppliers.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpMethod, HttpRoute } from '../routes.ts';

const suppliers = SUPPLIERS_RESOURCE;

const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const GENERIC = { resource: 'suppliers' } as const;
const route = routesOf('templates');

/**
 * Suppliers (02 §7): the generic list (`?type=distributor`) and get answer with a link to the logo;
 * the logo is uploaded and removed by staff.
 */
const SUPPLIER_ROUTES: readonly HttpRoute[] = [
  route('GET', '/suppliers', 'suppliers.list', suppliers.read, { ...GENERIC, ...READS }),
  route('GET', '/suppliers/{id}', 'suppliers.get', suppliers.read, { ...GENERIC, ...READS }),
  route('PUT', '/suppliers/{id}/logo', 'suppliers.putLogo', suppliers.write, GENERIC),
  route('DELETE', '/suppliers/{id}/logo', 'suppliers.deleteLogo', suppliers.write, GENERIC),
];

/** Supplier templates are staff tools: an empty permission list admits admins only. */
const STAFF: RoutePermission = [];
const TEMPLATES = { resource: 'templates' } as const;

const template = routesOf('templates');
const templateRoute = (method: HttpMethod, path: string, op: string): HttpRoute =>
  template(method, path, op, STAFF, TEMPLATES);

/**
 * Supplier invoice templates (02 §7 Templates): the generic list (`?supplierId=&type=`), get and schema
 * stay generic; writes replace the generic ones, because a supplier has one template per utility and a
 * template's lists refer to one another. The sample and preview calls serve the template editor.
 */
const TEMPLATE_ROUTES: readonly HttpRoute[] = [
  templateRoute('POST', '/templates', 'templates.create'),
  templateRoute('POST', '/templates/bulk', 'templates.bulk'),
  templateRoute('GET', '/templates/invoice-keys', 'templates.invoiceKeys'),
  templateRoute('PATCH', '/templates/{id}', 'templates.update'),
  templateRoute('DELETE', '/templates/{id}', 'templates.delete'),
  templateRoute('PUT', '/templates/{id}', 'templates.restore'),

  templateRoute('PUT', '/templates/{id}/versions', 'templates.versions'),
  templateRoute('PUT', '/templates/{id}/version-rules', 'templates.versionRules'),
  templateRoute('PUT', '/templates/{id}/supplier-rules', 'templates.supplierRules'),
  templateRoute('PUT', '/templates/{id}/pages', 'templates.pages'),
  templateRoute('PUT', '/templates/{id}/bounds', 'templates.bounds'),

  templateRoute('POST', '/templates/{id}/values', 'templates.addValue'),
  templateRoute('PATCH', '/templates/{id}/values/{valueId}', 'templates.updateValue'),
  templateRoute('DELETE', '/templates/{id}/values/{valueId}', 'templates.deleteValue'),
  templateRoute('POST', '/templates/{id}/rates', 'templates.addRate'),
  templateRoute('PATCH', '/templates/{id}/rates/{rateId}', 'templates.updateRate'),
  templateRoute('DELETE', '/templates/{id}/rates/{rateId}', 'templates.deleteRate'),

  // The editor's sample: uploaded under template-samples/ (never invoices/, which starts a capture).
  templateRoute('POST', '/templates/{id}/sample', 'templates.sample'),
  templateRoute('GET', '/templates/{id}/sample', 'templates.sampleUrl'),
  templateRoute('POST', '/templates/{id}/preview', 'templates.startPreview'),
  templateRoute('GET', '/suppliers/{id}/invoice-preview', 'templates.invoicePreview'),
];

/** Suppliers and their invoice capture templates. */
export const SUPPLIERS_AREA: AreaDecl = {
  name: 'suppliers',
  resources: SUPPLIERS_AREA_RESOURCES,
  routes: withQueries([...SUPPLIER_ROUTES, ...TEMPLATE_ROUTES], {
    'GET /suppliers/{id}/invoice-preview': invoicePreviewQuery,
  }),
};
