export {
  allCompanyIds,
  changeStoredCompany,
  companyIdForCaptureAddress,
  getCompany,
  type StoredCompany,
} from './company-repository.ts';
