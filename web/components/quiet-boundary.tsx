import { Component, type ReactNode } from 'react';
import { reportClientError } from '../lib/error-reporting.ts';

/**
 * Keeps a failing optional part (such as the search panel) from taking the page down with it: the part
 * is left out, and the error goes to error reporting, which leaves out parts that failed to load.
 */
export class QuietBoundary extends Component<
  { children: ReactNode; onError?: () => void },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    reportClientError(error, 'render');
    this.props.onError?.();
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
