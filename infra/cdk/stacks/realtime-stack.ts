import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import type { FunctionName } from '../../../shared/system/functions.ts';
import {
  DeclaredFunction,
  type FunctionResources,
  type FunctionSettings,
} from '../constructs/declared-function.ts';
import { functionsOfKind, pascal, type SystemDecl } from '../system.ts';
import { API_STAGE_THROTTLE } from './api-stack.ts';

export const LIVE_STAGE_NAME = 'live';

export interface RealtimeStackProps extends StackProps {
  system: SystemDecl;
  /** Queues are made after this stack (their workers post here), so WebSocket functions get none. */
  resources: Omit<FunctionResources, 'liveStage' | 'queues'>;
  settings: FunctionSettings;
}

/** The live connection: a WebSocket API whose routes the WebSocket functions serve. */
export class RealtimeStack extends Stack {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly functions = new Map<FunctionName, DeclaredFunction>();

  constructor(scope: Construct, id: string, props: RealtimeStackProps) {
    super(scope, id, props);
    this.api = new WebSocketApi(this, 'LiveApi', {
      description: 'Voltfolio live updates',
      routeSelectionExpression: '$request.body.action',
    });
    this.stage = new WebSocketStage(this, 'LiveStage', {
      webSocketApi: this.api,
      stageName: LIVE_STAGE_NAME,
      autoDeploy: true,
      // Connections and their messages count against the same bound as the HTTP API's calls.
      throttle: API_STAGE_THROTTLE,
    });

    const resources: FunctionResources = { ...props.resources, queues: {}, liveStage: this.stage };
    for (const decl of functionsOfKind(props.system, 'ws')) {
      this.functions.set(
        decl.name,
        new DeclaredFunction(this, { decl, resources, settings: props.settings }),
      );
    }

    const integrations = new Map<FunctionName, WebSocketLambdaIntegration>();
    for (const [name, declared] of this.functions) {
      integrations.set(name, new WebSocketLambdaIntegration(`${pascal(name)}Integration`, declared.fn));
    }
    for (const route of props.system.wsRoutes) {
      const integration = integrations.get(route.fn);
      if (!integration)
        throw new Error(`WebSocket route ${route.routeKey} names ${route.fn}, not a WebSocket function`);
      this.api.addRoute(route.routeKey, { integration });
    }

    new CfnOutput(this, 'LiveUrl', { value: this.stage.url });
    new CfnOutput(this, 'LiveManagementEndpoint', { value: this.stage.callbackUrl });
  }
}
