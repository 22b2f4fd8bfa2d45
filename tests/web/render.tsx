import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';

/** A component's first render as HTML, inside the theme provider every page has; styles left out. */
export function renderHtml(node: ReactNode): string {
  return renderToString(<MantineProvider>{node}</MantineProvider>).replace(
    /<style[^>]*>[\s\S]*?<\/style>/g,
    '',
  );
}

/** The visible text of rendered HTML, with tags and extra spaces gone. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}
