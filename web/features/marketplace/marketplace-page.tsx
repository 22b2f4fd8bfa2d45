import { useParams } from 'react-router';
import { CarbonCataloguePage } from './carbon-catalogue-page.tsx';
import { CarbonProjectPage } from './carbon-project-page.tsx';

/** /marketplace/carbon and /marketplace/carbon/:id share one chunk: the catalogue, or one project of it. */
function MarketplacePage() {
  const { id } = useParams();
  return id ? <CarbonProjectPage /> : <CarbonCataloguePage />;
}

// The router loads a page module and renders its `Component`.
export { MarketplacePage as Component };
