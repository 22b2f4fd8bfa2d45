/**
 * The columns of the CSV imports of entities, sites, meters, contracts, readings and invoices, which the
 * import wizard maps files to.
 */

/** One column a file may have: its field, the header names it is known by, and whether it must be there. */
export interface ImportColumn {
  field: string;
  aliases: readonly string[];
  required?: boolean;
}

const ADDRESS_COLUMNS: readonly ImportColumn[] = [
  { field: 'streetAddress', aliases: ['address', 'addressline1', 'street', 'streetaddress'] },
  { field: 'locality', aliases: ['town', 'city', 'locality'] },
  { field: 'region', aliases: ['county', 'region'] },
  { field: 'postCode', aliases: ['postcode', 'postalcode', 'zip', 'zipcode'] },
  { field: 'country', aliases: ['country'] },
];

export const ENTITY_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { field: 'legalName', aliases: ['legalname', 'name', 'entityname', 'entity'], required: true },
  { field: 'companyNumber', aliases: ['companynumber', 'companyno', 'registrationnumber'] },
  { field: 'parentEntity', aliases: ['parententity', 'parent', 'parentlegalname', 'parentname'] },
  { field: 'parentEntityId', aliases: ['parententityid', 'parentid'] },
  ...ADDRESS_COLUMNS,
];

export const ASSET_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { field: 'siteName', aliases: ['sitename', 'site', 'name', 'assetname'], required: true },
  { field: 'entity', aliases: ['entity', 'entityname', 'legalentity', 'entitylegalname'] },
  { field: 'entityId', aliases: ['entityid'] },
  { field: 'assetType', aliases: ['assettype', 'type', 'sitetype'], required: true },
  { field: 'status', aliases: ['status'] },
  { ...(ADDRESS_COLUMNS[0] as ImportColumn), required: true },
  ...ADDRESS_COLUMNS.slice(1, 3),
  { ...(ADDRESS_COLUMNS[3] as ImportColumn), required: true },
  ...ADDRESS_COLUMNS.slice(4),
  { field: 'floorArea', aliases: ['floorarea', 'area'] },
  { field: 'floorAreaUnit', aliases: ['floorareaunit', 'areaunit', 'unit'] },
];

export const ACCOUNT_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { field: 'name', aliases: ['name', 'metername', 'accountname'] },
  { field: 'site', aliases: ['site', 'sitename', 'asset', 'assetname'] },
  { field: 'assetId', aliases: ['assetid', 'siteid'] },
  { field: 'type', aliases: ['type', 'utility', 'utilitytype', 'fuel'], required: true },
  { field: 'meterPointNumber', aliases: ['meterpointnumber', 'mpan', 'mprn', 'spid', 'meterpoint'] },
  {
    field: 'meterSerialNumber',
    aliases: ['meterserialnumber', 'serialnumber', 'serial', 'meterserial', 'msn', 'serialno'],
  },
  { field: 'unit', aliases: ['unit', 'units'] },
  { field: 'supplierId', aliases: ['supplierid'] },
  { field: 'parentAccountId', aliases: ['parentaccountid', 'parentmeterid'] },
  { field: 'status', aliases: ['status'] },
  { field: 'tags', aliases: ['tags'] },
];

/** The meter a row of contracts, readings or invoices belongs to: by id, or by its MPAN or MPRN. */
const METER_COLUMNS: readonly ImportColumn[] = [
  { field: 'accountId', aliases: ['accountid', 'meterid'] },
  {
    field: 'meterPointNumber',
    aliases: ['meterpointnumber', 'mpan', 'mprn', 'spid', 'meterpoint', 'supplynumber'],
  },
];

export const CONTRACT_IMPORT_COLUMNS: readonly ImportColumn[] = [
  ...METER_COLUMNS,
  { field: 'name', aliases: ['name', 'contractname', 'contract'], required: true },
  { field: 'reference', aliases: ['reference', 'contractreference', 'ref', 'contractnumber'] },
  { field: 'supplierId', aliases: ['supplierid'] },
  { field: 'startDate', aliases: ['startdate', 'start', 'from', 'contractstart'], required: true },
  { field: 'endDate', aliases: ['enddate', 'end', 'to', 'contractend'], required: true },
  { field: 'status', aliases: ['status'] },
  { field: 'isRenewable', aliases: ['isrenewable', 'renewable', 'green'] },
  { field: 'regoBacked', aliases: ['regobacked', 'rego', 'regos'] },
  { field: 'notes', aliases: ['notes', 'note', 'comments'] },
];

export const READING_IMPORT_COLUMNS: readonly ImportColumn[] = [
  ...METER_COLUMNS,
  { field: 'date', aliases: ['date', 'readdate', 'readingdate'], required: true },
  { field: 'value', aliases: ['value', 'reading', 'read', 'register'], required: true },
  { field: 'unit', aliases: ['unit', 'units'] },
  { field: 'isEstimate', aliases: ['isestimate', 'estimate', 'estimated', 'type'] },
  { field: 'comment', aliases: ['comment', 'comments', 'notes', 'note'] },
];

/** Bills already received elsewhere, one row each, matched to a meter by its MPAN or MPRN. */
export const INVOICE_IMPORT_COLUMNS: readonly ImportColumn[] = [
  {
    field: 'meterPointNumber',
    aliases: ['mpan', 'mprn', 'meterpointnumber', 'meterpoint', 'spid'],
    required: true,
  },
  {
    field: 'invoiceNumber',
    aliases: ['invoicenumber', 'invoiceno', 'invoice', 'billnumber'],
    required: true,
  },
  { field: 'invoiceDate', aliases: ['invoicedate', 'taxpoint', 'billdate'] },
  { field: 'startDate', aliases: ['startdate', 'periodstart', 'from'], required: true },
  { field: 'endDate', aliases: ['enddate', 'periodend', 'to'], required: true },
  { field: 'consumption', aliases: ['consumption', 'units', 'kwh'] },
  { field: 'consumptionUnit', aliases: ['consumptionunit', 'unit'] },
  { field: 'netTotal', aliases: ['nettotal', 'net', 'netamount'] },
  { field: 'vatTotal', aliases: ['vattotal', 'vat', 'vatamount'] },
  { field: 'grossTotal', aliases: ['grosstotal', 'total', 'gross', 'amountdue'], required: true },
];
