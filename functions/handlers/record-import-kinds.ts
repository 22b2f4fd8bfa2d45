import { ACCOUNT_ROLLBACK, planAccountRows } from '../accounts/account-import-service.ts';
import { CONTRACT_ROLLBACK, planContractRows } from '../accounts/contract-import-service.ts';
import { planReadingRows, READING_ROLLBACK } from '../accounts/reading-import-service.ts';
import { ASSET_ROLLBACK, planAssetRows } from '../assets/asset-import-service.ts';
import { ENTITY_ROLLBACK, planEntityRows } from '../entities/entity-import-service.ts';
import { registerRecordImport } from '../imports/index.ts';
import { INVOICE_ROLLBACK, planInvoiceRows } from '../invoices/invoice-import-kind.ts';

/** The functions that preview and run imports judge each type's rows by the resource's own services. */
registerRecordImport('sites', async () => ({ model: 'assets', plan: planAssetRows, rules: ASSET_ROLLBACK }));
registerRecordImport('entities', async () => ({
  model: 'entities',
  plan: planEntityRows,
  rules: ENTITY_ROLLBACK,
}));
registerRecordImport('meters', async () => ({
  model: 'accounts',
  plan: planAccountRows,
  rules: ACCOUNT_ROLLBACK,
}));
registerRecordImport('contracts', async () => ({
  model: 'contracts',
  plan: planContractRows,
  rules: CONTRACT_ROLLBACK,
}));
registerRecordImport('readings', async () => ({
  model: 'readings',
  plan: planReadingRows,
  rules: READING_ROLLBACK,
}));
registerRecordImport('invoices', async () => ({
  model: 'invoices',
  plan: planInvoiceRows,
  rules: INVOICE_ROLLBACK,
}));
