export { allCompanyIds, companyIdForCaptureAddress, getCompany } from './company-repository.ts';
