import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_STAGE_THROTTLE, FALLBACK_FUNCTION } from '../../infra/cdk/stacks/api-stack.ts';
import { WS_ROUTES } from '../../shared/system/functions.ts';
import { routePrefixes } from '../../shared/system/routes.ts';
import {
  type Located,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  someResourcesOfType,
  synthesize,
  tag,
} from './support/synth.ts';

describe('HTTP and WebSocket APIs', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  const apis = (protocol: string) =>
    resourcesOfType(synth, 'AWS::ApiGatewayV2::Api').filter(
      (a) => a.resource.Properties?.ProtocolType === protocol,
    );

  /** Route key → the function its integration invokes. */
  const routesOf = (api: Located): Map<string, string | undefined> => {
    const routes = new Map<string, string | undefined>();
    for (const route of resourcesOfType(synth, 'AWS::ApiGatewayV2::Route')) {
      const props = route.resource.Properties ?? {};
      const [owner] = referencedResources(synth, route.stack, props.ApiId);
      if (owner?.logicalId !== api.logicalId || owner.stack !== api.stack) continue;
      const [integration] = referencedResources(synth, route.stack, props.Target);
      const [fn] = integration
        ? referencedResources(synth, integration.stack, integration.resource.Properties?.IntegrationUri)
        : [];
      routes.set(String(props.RouteKey), fn ? tag(fn.resource, 'voltfolio:function') : undefined);
    }
    return routes;
  };

  it('routes every declared path prefix, with and without a sub-path, to its function', () => {
    const [api] = apis('HTTP');
    if (!api) throw new Error('no HTTP API');
    const routes = routesOf(api);
    const prefixes = routePrefixes();
    expect(prefixes.size).toBeGreaterThan(0);
    for (const [prefix, fn] of prefixes) {
      expect(routes.get(`ANY /api/${prefix}`), prefix).toBe(fn);
      expect(routes.get(`ANY /api/${prefix}/{proxy+}`), prefix).toBe(fn);
    }
  });

  it('sends unclaimed paths to a function that answers ROUTE_NOT_FOUND', () => {
    const [api] = apis('HTTP');
    if (!api) throw new Error('no HTTP API');
    const routes = routesOf(api);
    expect(routes.get('$default')).toBe(FALLBACK_FUNCTION);
    expect(routes.size).toBe(routePrefixes().size * 2 + 1);
  });

  it('deploys the HTTP API on an auto-deployed default stage', () => {
    const stages = resourcesOfType(synth, 'AWS::ApiGatewayV2::Stage').filter(
      (s) => s.stack === synth.stacks.api.stackName,
    );
    expect(stages.map((s) => [s.resource.Properties?.StageName, s.resource.Properties?.AutoDeploy])).toEqual([
      ['$default', true],
    ]);
  });

  it('throttles every call of both APIs at the stage, signed in or not', () => {
    const stages = resourcesOfType(synth, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(2);
    for (const stage of stages) {
      expect(stage.resource.Properties?.DefaultRouteSettings).toMatchObject({
        ThrottlingRateLimit: API_STAGE_THROTTLE.rateLimit,
        ThrottlingBurstLimit: API_STAGE_THROTTLE.burstLimit,
      });
    }
  });

  it('serves the declared WebSocket routes, selected by the message action', () => {
    const [api] = apis('WEBSOCKET');
    if (!api) throw new Error('no WebSocket API');
    expect(api.resource.Properties?.RouteSelectionExpression).toBe('$request.body.action');
    const routes = routesOf(api);
    expect(new Map(WS_ROUTES.map((r) => [r.routeKey, r.fn]))).toEqual(routes);
  });

  it('publishes the WebSocket API on the live stage', () => {
    const stages = resourcesOfType(synth, 'AWS::ApiGatewayV2::Stage').filter(
      (s) => s.stack === synth.stacks.realtime.stackName,
    );
    expect(stages.map((s) => s.resource.Properties?.StageName)).toEqual(['live']);
  });

  it('lets each API invoke only the functions it routes to', () => {
    for (const permission of someResourcesOfType(synth, 'AWS::Lambda::Permission')) {
      const props = permission.resource.Properties ?? {};
      expect(props.Principal).toBe('apigateway.amazonaws.com');
      expect(
        referencedResources(synth, permission.stack, props.SourceArn).map((r) => r.resource.Type),
      ).toContain('AWS::ApiGatewayV2::Api');
    }
  });
});
