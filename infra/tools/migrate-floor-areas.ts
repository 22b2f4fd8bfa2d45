/**
 * `npm run migrate:floor-areas`: stores every site's floor area in m² (see
 * functions/assets/floor-area-migration.ts). The local stack runs it at each start; against AWS set
 * TABLE_NAME, AWS_REGION and the usual AWS credentials. It may be run again: a migrated site is marked and
 * never converted twice.
 */
const { migrateFloorAreas } = await import('../../functions/assets/floor-area-migration.ts');
const done = await migrateFloorAreas();
console.log(
  `${done.companies} companies, ${done.checked} sites checked: ${done.marked} entered in ft² marked, ${done.converted} of them converted to m²`,
);
