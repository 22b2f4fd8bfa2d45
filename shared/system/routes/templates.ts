import type { RoutePermission } from '../../access/permission-names.ts';
import type { HttpMethod, HttpRoute } from '../routes.ts';
import { routesOf } from './route-builder.ts';

/** Supplier templates are staff tools: an empty permission list admits admins only. */
const STAFF: RoutePermission = [];
const TEMPLATES = { resource: 'templates' } as const;

const template = routesOf('templates');
const route = (method: HttpMethod, path: string, op: string): HttpRoute =>
  template(method, path, op, STAFF, TEMPLATES);

/**
 * Supplier invoice templates (02 §7 Templates): the generic list (`?supplierId=&type=`), get and schema
 * stay generic; writes replace the generic ones, because a supplier has one template per utility and a
 * template's lists refer to one another. The sample and preview calls serve the template editor.
 */
export const TEMPLATE_ROUTES: readonly HttpRoute[] = [
  route('POST', '/templates', 'templates.create'),
  route('POST', '/templates/bulk', 'templates.bulk'),
  route('GET', '/templates/invoice-keys', 'templates.invoiceKeys'),
  route('PATCH', '/templates/{id}', 'templates.update'),
  route('DELETE', '/templates/{id}', 'templates.delete'),
  route('PUT', '/templates/{id}', 'templates.restore'),

  route('PUT', '/templates/{id}/versions', 'templates.versions'),
  route('PUT', '/templates/{id}/version-rules', 'templates.versionRules'),
  route('PUT', '/templates/{id}/supplier-rules', 'templates.supplierRules'),
  route('PUT', '/templates/{id}/pages', 'templates.pages'),
  route('PUT', '/templates/{id}/bounds', 'templates.bounds'),

  route('POST', '/templates/{id}/values', 'templates.addValue'),
  route('PATCH', '/templates/{id}/values/{valueId}', 'templates.updateValue'),
  route('DELETE', '/templates/{id}/values/{valueId}', 'templates.deleteValue'),
  route('POST', '/templates/{id}/rates', 'templates.addRate'),
  route('PATCH', '/templates/{id}/rates/{rateId}', 'templates.updateRate'),
  route('DELETE', '/templates/{id}/rates/{rateId}', 'templates.deleteRate'),

  // The editor's sample: uploaded under template-samples/ (never invoices/, which starts a capture).
  route('POST', '/templates/{id}/sample', 'templates.sample'),
  route('GET', '/templates/{id}/sample', 'templates.sampleUrl'),
  route('POST', '/templates/{id}/preview', 'templates.startPreview'),
  route('GET', '/suppliers/{id}/invoice-preview', 'templates.invoicePreview'),
];
