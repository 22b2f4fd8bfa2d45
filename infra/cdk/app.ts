import { App } from 'aws-cdk-lib';
import { createVoltfolioStacks } from './voltfolio-app.ts';

// Run by the CDK CLI (`npx cdk synth`, see cdk.json): bundles the functions, then builds every stack.
const app = new App();
createVoltfolioStacks(app);
app.synth();
