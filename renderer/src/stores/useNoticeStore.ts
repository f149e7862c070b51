// The transient message of API Management (spec section 2): one at a time, gone after 4000 ms.
// Screens, modals and the scan poller all report through it.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DELAYS } from '../../../shared/constants';

export type NoticeKind = 'success' | 'error' | 'info';

/** An in-app link the notice offers (the finished scan's page). */
export interface NoticeLink {
  to: string;
  label: string;
}

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  link?: NoticeLink;
}

export interface NoticeState {
  notice: Notice | null;
  show(kind: NoticeKind, text: string, link?: NoticeLink): void;
  dismiss(): void;
}

export function createNoticeStore(durationMs: number = DELAYS.transientMessageMs): StoreApi<NoticeState> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  return createStore<NoticeState>()((set) => ({
    notice: null,
    show(kind, text, link) {
      clearTimeout(timer);
      const id = ++seq;
      set({ notice: link ? { id, kind, text, link } : { id, kind, text } });
      timer = setTimeout(() => set((s) => (s.notice?.id === id ? { notice: null } : s)), durationMs);
    },
    dismiss() {
      clearTimeout(timer);
      set({ notice: null });
    },
  }));
}

export const noticeStore = createNoticeStore();

export function useNoticeStore<T>(selector: (s: NoticeState) => T): T {
  return useStore(noticeStore, selector);
}
