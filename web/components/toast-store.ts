import { TOAST_DURATION_MS } from '../../shared/constants.ts';

export type ToastTone = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

export interface ToastStore {
  show(message: string, tone?: ToastTone): number;
  dismiss(id: number): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Toast[];
}

/** Toasts close by themselves after the spec's 3 seconds (01 §9), or earlier when dismissed. */
export function createToastStore(durationMs = TOAST_DURATION_MS): ToastStore {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const dismiss = (id: number) => {
    if (!toasts.some((t) => t.id === id)) return;
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  };
  return {
    show(message, tone = 'info') {
      const id = nextId++;
      toasts = [...toasts, { id, message, tone }];
      emit();
      setTimeout(() => dismiss(id), durationMs);
      return id;
    },
    dismiss,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
  };
}

export const toastStore = createToastStore();

export function showToast(message: string, tone: ToastTone = 'info'): void {
  toastStore.show(message, tone);
}
