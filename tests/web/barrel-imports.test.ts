import { describe, expect, it } from 'vitest';
import { type BarrelMap, parseBarrel, rewriteBarrelImports } from '../../web/barrel-imports.ts';

const INDEX = `import { Button } from "./components/Button/Button.mjs";
import { TextInput } from "./components/TextInput/TextInput.mjs";
import { transitions } from "./components/Transition/transitions.mjs";
export { Button, TextInput, transitions as MANTINE_TRANSITIONS };
`;

describe('imports of a package index', () => {
  const map: BarrelMap = parseBarrel(INDEX, '/nm/@mantine/core/esm/index.mjs');
  const barrels = new Map([['@mantine/core', map]]);

  it('are traced to the module that defines each name', () => {
    expect(map.get('Button')).toEqual({
      file: '/nm/@mantine/core/esm/components/Button/Button.mjs',
      name: 'Button',
    });
    expect(map.get('MANTINE_TRANSITIONS')).toEqual({
      file: '/nm/@mantine/core/esm/components/Transition/transitions.mjs',
      name: 'transitions',
    });
  });

  it('are rewritten to import each name from its own module, keeping aliases and line count', () => {
    const source =
      "import {\n  Button,\n  TextInput as Field,\n  type MantineTheme,\n} from '@mantine/core';\nconst x = 1;\n";
    const out = rewriteBarrelImports(source, barrels);
    expect(out).toBe(
      'import { Button as Button } from "/nm/@mantine/core/esm/components/Button/Button.mjs"; ' +
        'import { TextInput as Field } from "/nm/@mantine/core/esm/components/TextInput/TextInput.mjs";' +
        '\n\n\n\n\nconst x = 1;\n',
    );
    expect(out.split('\n')).toHaveLength(source.split('\n').length);
  });

  it('leave names they cannot trace, other packages and type-only imports alone', () => {
    expect(rewriteBarrelImports("import { Button, Unknown } from '@mantine/core';", barrels)).toBe(
      'import { Button as Button } from "/nm/@mantine/core/esm/components/Button/Button.mjs"; import { Unknown } from "@mantine/core";',
    );
    const other = "import { useState } from 'react';\nimport type { ButtonProps } from '@mantine/core';";
    expect(rewriteBarrelImports(other, barrels)).toBe(other);
  });
});
