import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '../../../infra/build/bundle-functions.ts';
import {
  allStacks,
  createVoltfolioStacks,
  type VoltfolioAppOptions,
  type VoltfolioStacks,
} from '../../../infra/cdk/voltfolio-app.ts';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** A resource and where it lives. */
export interface Located {
  stack: string;
  logicalId: string;
  resource: CfnResource;
}

export interface Synthesized {
  stacks: VoltfolioStacks;
  templates: Map<string, Template>;
  /** Template JSON by stack name. */
  json: Map<string, CfnTemplate>;
  /** Frees the bundles written for this synthesis. */
  cleanup: () => void;
}

/** The context `cdk synth` gets from cdk.json, so the tests see the templates that would deploy. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return cdkJson.context;
}

let runs = 0;

/**
 * Builds the app as `cdk synth` does. Bundles go to a folder of their own (inside the repository, so
 * they can still resolve `@aws-sdk/*` from node_modules), because test files run in parallel.
 */
export function synthesize(
  options: Omit<VoltfolioAppOptions, 'bundleDir'> & { context?: Record<string, unknown> } = {},
): Synthesized {
  runs += 1;
  const bundleDir = join(REPO_ROOT, '.build', 'tests', `${process.pid}-${runs}`, 'functions');
  mkdirSync(bundleDir, { recursive: true });
  // The SPA's build is tested in tests/web; the web stack only needs a folder to deploy from.
  const webDir = join(bundleDir, '..', 'web');
  mkdirSync(webDir, { recursive: true });
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Voltfolio</title>');
  const app = new App({ context: { ...cdkJsonContext(), ...options.context } });
  const stacks = createVoltfolioStacks(app, { webDir, ...options, bundleDir });
  const templates = new Map<string, Template>();
  const json = new Map<string, CfnTemplate>();
  for (const stack of allStacks(stacks)) {
    const template = Template.fromStack(stack);
    templates.set(stack.stackName, template);
    json.set(stack.stackName, template.toJSON() as CfnTemplate);
  }
  return {
    stacks,
    templates,
    json,
    cleanup: () => rmSync(join(bundleDir, '..'), { recursive: true, force: true }),
  };
}

/** The template of one stack; a stack the app did not build fails the test that asked for it. */
export function templateOf(synth: Synthesized, stackName: string): Template {
  const template = synth.templates.get(stackName);
  if (!template) {
    throw new Error(
      `No template for stack ${stackName}; synthesized: ${[...synth.templates.keys()].join(', ')}`,
    );
  }
  return template;
}

/**
 * The resources of a type that a test checks one by one: with none, such a test would check nothing,
 * so their absence fails it.
 */
export function someResourcesOfType(synth: Synthesized, type: string): Located[] {
  const found = resourcesOfType(synth, type);
  if (found.length === 0) throw new Error(`No ${type} in any stack`);
  return found;
}

export function resourcesOfType(synth: Synthesized, type: string): Located[] {
  const found: Located[] = [];
  for (const [stack, template] of synth.json) {
    for (const [logicalId, resource] of Object.entries(template.Resources)) {
      if (resource.Type === type) found.push({ stack, logicalId, resource });
    }
  }
  return found;
}

export function tag(resource: CfnResource, key: string): string | undefined {
  const tags = resource.Properties?.Tags;
  if (Array.isArray(tags)) {
    const match = tags.find((t): t is { Key: string; Value: string } => isRecord(t) && t.Key === key);
    return match?.Value;
  }
  // Some resource types (e.g. AWS::ApiGatewayV2) take tags as a map.
  if (isRecord(tags) && typeof tags[key] === 'string') return tags[key];
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function locate(synth: Synthesized, stack: string, logicalId: string): Located | undefined {
  const resource = synth.json.get(stack)?.Resources[logicalId];
  return resource ? { stack, logicalId, resource } : undefined;
}

/**
 * Every resource an expression refers to: `Ref`, `Fn::GetAtt`, and the values other stacks publish
 * (`Fn::GetStackOutput`, `Fn::ImportValue`), followed back to the resource that produces them.
 */
export function referencedResources(synth: Synthesized, stack: string, value: unknown): Located[] {
  const found: Located[] = [];
  const visit = (current: string, node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(current, item);
      return;
    }
    if (!isRecord(node)) return;
    const ref = node.Ref;
    if (typeof ref === 'string' && !ref.startsWith('AWS::')) {
      const hit = locate(synth, current, ref);
      if (hit) found.push(hit);
    }
    const getAtt = node['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') {
      const hit = locate(synth, current, getAtt[0]);
      if (hit) found.push(hit);
    }
    const output = node['Fn::GetStackOutput'];
    if (isRecord(output) && typeof output.StackName === 'string' && typeof output.OutputName === 'string') {
      const produced = synth.json.get(output.StackName)?.Outputs?.[output.OutputName];
      if (produced) visit(output.StackName, produced.Value);
    }
    const imported = node['Fn::ImportValue'];
    if (typeof imported === 'string') {
      for (const [name, template] of synth.json) {
        for (const out of Object.values(template.Outputs ?? {}) as {
          Value: unknown;
          Export?: { Name?: unknown };
        }[]) {
          if (out.Export?.Name === imported) visit(name, out.Value);
        }
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== 'Fn::GetStackOutput') visit(current, child);
    }
  };
  visit(stack, value);
  return found;
}
