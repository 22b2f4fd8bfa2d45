export {
  allCompanyIds,
  changeStoredCompany,
  companyIdForCaptureAddress,
  getCompany,
} from './company-repository.ts';
