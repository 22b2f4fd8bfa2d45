import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  componentBreaches,
  featureImportBreaches,
  responseTypeBreaches,
  webBreaches,
  webResponseTypeBreaches,
} from './web-rules.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the web layering rules', () => {
  it('hold across web/', () => {
    const breaches = webBreaches(ROOT).map((b) => `${b.file}:${b.line} ${b.rule}: ${b.text}`);
    expect(breaches).toEqual([]);
  });

  it('catch a component that fetches with SWR', () => {
    const source = "import useSWR from 'swr';\nexport const A = () => useSWR('/assets');\n";
    expect(componentBreaches('web/features/assets/a.tsx', source).map((b) => b.rule)).toEqual([
      'swr-hook-in-component',
    ]);
    const config = "import { SWRConfig, useSWRConfig } from 'swr';\n";
    expect(componentBreaches('web/features/assets/a.tsx', config)).toHaveLength(1);
  });

  it('let the app provide SWR and let hook modules use it', () => {
    expect(componentBreaches('web/app/providers.tsx', "import { SWRConfig } from 'swr';\n")).toEqual([]);
    expect(componentBreaches('web/features/assets/api/use-asset.ts', "import useSWR from 'swr';\n")).toEqual(
      [],
    );
  });

  it('catch a component that calls the api client', () => {
    const source = [
      "import { useApi } from '../../lib/app-context.tsx';",
      'const api = useApi();',
      'await api.del("/assets/" + id);',
      "const x = await services.api.get<{ url: string }>('/x');",
    ].join('\n');
    expect(componentBreaches('web/features/assets/a.tsx', source).map((b) => `${b.rule}@${b.line}`)).toEqual([
      'api-client-in-component@1',
      'raw-api-call-in-component@3',
      'raw-api-call-in-component@4',
    ]);
  });

  it('catch a feature importing another feature, and allow the shared folders', () => {
    const source = [
      "import { useAsset } from '../assets/api.ts';",
      "import { Frame } from '../../components/frame.tsx';",
      "import { format } from '../../lib/format.ts';",
      "import { useOwn } from './api/use-own.ts';",
      "const Lazy = lazy(() => import('../../features/company/x.tsx'));",
    ].join('\n');
    const breaches = featureImportBreaches('web/features/accounts/page.tsx', source);
    expect(breaches.map((b) => b.line)).toEqual([1, 5]);
    expect(featureImportBreaches('web/app/router.tsx', source)).toEqual([]);
  });
});

/**
 * The types of the server's answers come from shared/, where the server's mappers are typed with them
 * too, so the page and the service cannot drift apart. The rule (see `responseTypeBreaches`): a hook
 * module (a web/ `.ts` file with a typed read `useSWR<T>` or call `api.get|post|put|patch|del|request<T>`)
 * declares no interface and no object-shaped type alias, unless it is listed in CLIENT_SHAPES as a shape
 * the browser makes itself; and no type argument of a read or call names a type imported from web/ or
 * writes an object type in place.
 */
/** What the rule finds in `source` as a hook module of web/, each as `rule@line text`. */
const hookModuleBreaches = (source: string) =>
  responseTypeBreaches('web/features/assets/api.ts', source).map((b) => `${b.rule}@${b.line} ${b.text}`);

describe('the answer types of the web', () => {
  it('come from shared/ across web/', () => {
    const breaches = webResponseTypeBreaches(ROOT).map((b) => `${b.file}:${b.line} ${b.rule}: ${b.text}`);
    expect(breaches).toEqual([]);
  });

  it('catch an answer shape written in a hook module, exported or not', () => {
    const source = [
      "import useSWR from 'swr';",
      'export interface SiteView { _id: string; siteName: string }',
      'interface Page<T> { data: T[]; total: number }',
      'export type Meter = Stored<{ name: string }>;',
      'type Body = Record<string, unknown>;',
      'export type Option = Pick<SiteView, "_id">;',
      "export const useSites = () => useSWR<Page<SiteView>>('/assets');",
    ].join('\n');
    expect(hookModuleBreaches(source)).toEqual([
      'response-type-declared@2 interface SiteView',
      'response-type-declared@3 interface Page',
      'response-type-declared@4 type Meter',
    ]);
  });

  it('catch an answer type imported from another web module into a read or a call', () => {
    const source = [
      "import type { AssetView } from '../../../shared/schemas/responses/assets.ts';",
      "import type { Ticket } from './upload.ts';",
      "import { type Widget, useThing } from '../../lib/widgets.ts';",
      "export const useAsset = (id: string) => useSWR<AssetView>('/assets/' + id);",
      "export const upload = (api: ApiClient) => api.post<Ticket>('/uploads', {});",
      "export const useWidgets = () => useSWR<{ data: Widget[] }>('/widgets');",
    ].join('\n');
    expect(hookModuleBreaches(source)).toEqual([
      'response-type-from-web@5 Ticket from web/features/assets/upload.ts',
      'response-type-inline@6 <{ data: Widget[] }>',
      'response-type-from-web@6 Widget from web/lib/widgets.ts',
    ]);
  });

  it('catch an answer shape written in place in a read or a call', () => {
    const source = [
      "import type { DownloadLink } from '../../../shared/schemas/responses/common.ts';",
      "export const useLink = () => useSWR<{ downloadUrl: string }>('/link');",
      "export const send = (api: ApiClient) => api.post<{ sent: number } | undefined>('/send', {});",
      "export const link = (api: ApiClient) => api.get<DownloadLink>('/link');",
    ].join('\n');
    expect(hookModuleBreaches(source)).toEqual([
      'response-type-inline@2 <{ downloadUrl: string }>',
      'response-type-inline@3 <{ sent: number } | undefined>',
    ]);
  });

  it('leave alone the shapes the browser makes itself, components, and modules that call nothing', () => {
    const hook = [
      'export type Read<T> = { data?: T; error?: unknown; isLoading: boolean };',
      "export const useList = () => useSWR<number>('/count');",
    ].join('\n');
    expect(responseTypeBreaches('web/features/assets/api.ts', hook)).toEqual([]);
    const plain = 'export interface UploadEntry { key: string; percent: number }\n';
    expect(responseTypeBreaches('web/features/invoices/upload-state.ts', plain)).toEqual([]);
    const page = "export interface Props { id: string }\nconst x = useSWR<{ a: 1 }>('/a');\n";
    expect(responseTypeBreaches('web/features/assets/page.tsx', page)).toEqual([]);
  });
});
