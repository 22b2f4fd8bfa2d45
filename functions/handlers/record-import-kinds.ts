import { registerRecordImport } from '../imports/index.ts';

/**
 * The functions that preview and run imports judge each type's rows by the resource's own services, loaded
 * on the first import of that type: most calls to those functions import nothing.
 */
registerRecordImport('sites', async () => {
  const { ASSET_ROLLBACK, planAssetRows } = await import('../assets/asset-import-service.ts');
  return { model: 'assets', plan: planAssetRows, rules: ASSET_ROLLBACK };
});
registerRecordImport('entities', async () => {
  const { ENTITY_ROLLBACK, planEntityRows } = await import('../entities/entity-import-service.ts');
  return { model: 'entities', plan: planEntityRows, rules: ENTITY_ROLLBACK };
});
registerRecordImport('meters', async () => {
  const { ACCOUNT_ROLLBACK, planAccountRows } = await import('../accounts/account-import-service.ts');
  return { model: 'accounts', plan: planAccountRows, rules: ACCOUNT_ROLLBACK };
});
registerRecordImport('contracts', async () => {
  const { CONTRACT_ROLLBACK, planContractRows } = await import('../accounts/contract-import-service.ts');
  return { model: 'contracts', plan: planContractRows, rules: CONTRACT_ROLLBACK };
});
registerRecordImport('readings', async () => {
  const { planReadingRows, READING_ROLLBACK } = await import('../accounts/reading-import-service.ts');
  return { model: 'readings', plan: planReadingRows, rules: READING_ROLLBACK };
});
registerRecordImport('invoices', async () => {
  const { INVOICE_ROLLBACK, planInvoiceRows } = await import('../invoices/invoice-import-kind.ts');
  return { model: 'invoices', plan: planInvoiceRows, rules: INVOICE_ROLLBACK };
});
