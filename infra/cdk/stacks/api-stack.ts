import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import type { FunctionName, HttpFunctionName } from '../../../shared/system/functions.ts';
import {
  DeclaredFunction,
  type FunctionResources,
  type FunctionSettings,
} from '../constructs/declared-function.ts';
import { functionsOfKind, pascal, type SystemDecl } from '../system.ts';

export const API_BASE_PATH = '/api';

/**
 * The API's steady request rate and burst, for every caller together: an HTTP API has no per-caller
 * quotas, so this bounds what a flood of calls (signed in or not) can cost before the functions run.
 * Past it the gateway answers 429. The local stack's gateway limits each caller (infra/local/api-throttle.ts).
 */
export const API_STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

/** Serves paths no route claims, so they still get the API's own 404 ROUTE_NOT_FOUND answer. */
export const FALLBACK_FUNCTION: HttpFunctionName = 'session';

export interface ApiStackProps extends StackProps {
  system: SystemDecl;
  resources: FunctionResources;
  settings: FunctionSettings;
}

/**
 * The HTTP API: each path prefix below `/api` goes to the one function of its resource area, whose own
 * route table then finds the declared route.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly functions = new Map<FunctionName, DeclaredFunction>();
  /** Host name of the API's execute-api endpoint, for CloudFront's origin. */
  readonly originDomain: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const integrations = new Map<FunctionName, HttpLambdaIntegration>();
    for (const decl of functionsOfKind(props.system, 'http')) {
      const fn = new DeclaredFunction(this, { decl, resources: props.resources, settings: props.settings });
      this.functions.set(decl.name, fn);
      integrations.set(
        decl.name,
        // One invoke permission per function rather than one per route keeps the stack small.
        new HttpLambdaIntegration(`${pascal(decl.name)}Integration`, fn.fn, {
          scopePermissionToRoute: false,
        }),
      );
    }

    const fallback = integrations.get(FALLBACK_FUNCTION);
    if (!fallback) throw new Error(`The fallback function ${FALLBACK_FUNCTION} is not an HTTP function`);
    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Voltfolio API',
      defaultIntegration: fallback,
    });

    const stage = this.api.defaultStage?.node.defaultChild as CfnStage | undefined;
    if (!stage) throw new Error('The HTTP API has no default stage');
    stage.defaultRouteSettings = {
      throttlingRateLimit: API_STAGE_THROTTLE.rateLimit,
      throttlingBurstLimit: API_STAGE_THROTTLE.burstLimit,
    };

    for (const [prefix, fnName] of props.system.httpPrefixes) {
      const integration = integrations.get(fnName);
      if (!integration) throw new Error(`Path prefix /${prefix} names ${fnName}, not an HTTP function`);
      const base = `${API_BASE_PATH}/${prefix}`;
      this.api.addRoutes({ path: base, methods: [HttpMethod.ANY], integration });
      this.api.addRoutes({ path: `${base}/{proxy+}`, methods: [HttpMethod.ANY], integration });
    }

    // apiEndpoint is `https://<id>.execute-api.<region>.amazonaws.com`; CloudFront wants the host only.
    this.originDomain = Fn.select(2, Fn.split('/', this.api.apiEndpoint));
    new CfnOutput(this, 'ApiEndpoint', { value: this.api.apiEndpoint });
  }
}
