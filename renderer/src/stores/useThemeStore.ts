// Dark/light theme: the choice is kept as `darkMode` in local storage; until the user picks one the
// page follows the system preference. Changes fade over the spec's 300 ms.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DELAYS, STORAGE_KEYS } from '../../../shared/constants';
import { browserStorage, type KeyValueStorage } from './storage';

export interface ThemeState {
  darkMode: boolean;
  /** True once the user has chosen; the system preference no longer applies. */
  chosen: boolean;
  toggle(): void;
  setDarkMode(dark: boolean): void;
}

/** What the store needs from the page: the root element to mark and the system preference. */
export interface ThemeTarget {
  apply(dark: boolean, animate: boolean): void;
  systemPrefersDark(): boolean;
  onSystemChange(listener: (dark: boolean) => void): void;
}

export interface ThemeDeps {
  storage: KeyValueStorage;
  target: ThemeTarget;
}

function readChoice(storage: KeyValueStorage): boolean | null {
  const raw = storage.getItem(STORAGE_KEYS.darkMode);
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return null;
}

export function createThemeStore({ storage, target }: ThemeDeps): StoreApi<ThemeState> {
  const choice = readChoice(storage);
  const initial = choice ?? target.systemPrefersDark();
  target.apply(initial, false);

  const store = createStore<ThemeState>()((set, get) => ({
    darkMode: initial,
    chosen: choice !== null,
    toggle() {
      get().setDarkMode(!get().darkMode);
    },
    setDarkMode(dark) {
      storage.setItem(STORAGE_KEYS.darkMode, String(dark));
      if (dark !== get().darkMode) target.apply(dark, true);
      set({ darkMode: dark, chosen: true });
    },
  }));

  target.onSystemChange((dark) => {
    const s = store.getState();
    if (s.chosen || s.darkMode === dark) return;
    target.apply(dark, true);
    store.setState({ darkMode: dark });
  });
  return store;
}

/** Marks <html> with data-theme and color-scheme; `theme-transition` animates colours for 300 ms. */
export function documentThemeTarget(doc: Document = document): ThemeTarget {
  const root = doc.documentElement;
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  root.style.setProperty('--theme-transition-duration', `${DELAYS.themeTransitionMs}ms`);
  return {
    apply(dark, animate) {
      if (animate) {
        root.classList.add('theme-transition');
        clearTimeout(timer);
        timer = setTimeout(() => root.classList.remove('theme-transition'), DELAYS.themeTransitionMs);
      }
      root.dataset.theme = dark ? 'dark' : 'light';
      root.style.colorScheme = dark ? 'dark' : 'light';
    },
    systemPrefersDark: () => media?.matches ?? false,
    onSystemChange(listener) {
      media?.addEventListener('change', (e) => listener(e.matches));
    },
  };
}

let themeStore: StoreApi<ThemeState> | undefined;

/** The page's theme store, created (and applied to <html>) on first use. */
export function getThemeStore(): StoreApi<ThemeState> {
  themeStore ??= createThemeStore({ storage: browserStorage(), target: documentThemeTarget() });
  return themeStore;
}

export function useThemeStore<T>(selector: (state: ThemeState) => T): T {
  return useStore(getThemeStore(), selector);
}
