import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { componentBreaches, featureImportBreaches, webBreaches } from './web-rules.ts';

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
