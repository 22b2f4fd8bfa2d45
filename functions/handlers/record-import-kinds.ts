import { ACCOUNT_ROLLBACK, planAccountRows } from '../accounts/account-import-service.ts';
import { ASSET_ROLLBACK, planAssetRows } from '../assets/asset-import-service.ts';
import { ENTITY_ROLLBACK, planEntityRows } from '../entities/entity-import-service.ts';
import { registerRecordImport } from '../imports/index.ts';

/** The functions that preview and run imports judge sites, entities and meters by their own services. */
registerRecordImport('sites', { model: 'assets', plan: planAssetRows, rules: ASSET_ROLLBACK });
registerRecordImport('entities', { model: 'entities', plan: planEntityRows, rules: ENTITY_ROLLBACK });
registerRecordImport('meters', { model: 'accounts', plan: planAccountRows, rules: ACCOUNT_ROLLBACK });
