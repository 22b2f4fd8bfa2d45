import { App } from 'aws-cdk-lib';
import { buildWeb } from '../../web/build.ts';
import { createVoltfolioStacks, DEFAULT_WEB_DIR } from './voltfolio-app.ts';

// Run by the CDK CLI (`npx cdk synth`, see cdk.json): builds the SPA and bundles the functions, then
// builds every stack. The SPA's config.json written here is for the local stack; the web stack leaves it
// out and deploys one made from the other stacks' values instead.
await buildWeb({
  outDir: DEFAULT_WEB_DIR,
  watch: false,
  env: { issuer: 'http://localhost:3000/oidc', clientId: 'voltfolio-web', apiBase: '/api', wsUrl: '/ws' },
});
const app = new App();
createVoltfolioStacks(app, { webDir: DEFAULT_WEB_DIR });
app.synth();
