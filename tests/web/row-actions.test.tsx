import { Button } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { RowActions } from '../../web/components/row-actions.tsx';
import { renderHtml, textOf } from './render.tsx';

const noop = () => undefined;

describe('a row of readings, contracts or company recommendations', () => {
  it('offers Edit and Delete, with the row’s other actions between them, to those who may change it', () => {
    const row = textOf(
      renderHtml(
        <RowActions mayChange onEdit={noop} onDelete={noop}>
          <Button>Rates</Button>
        </RowActions>,
      ),
    );
    expect(row).toBe('Edit Rates Delete');
  });

  it('offers no action to staff looking into another company or to readers', () => {
    const row = renderHtml(
      <RowActions mayChange={false} onEdit={noop} onDelete={noop}>
        <Button>Rates</Button>
      </RowActions>,
    );
    expect(textOf(row)).toBe('');
  });
});
