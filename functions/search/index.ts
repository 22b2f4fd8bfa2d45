export { searchPortfolio } from './search-service.ts';
