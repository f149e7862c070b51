import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../shared/constants';
import { memoryStorage } from './storage';
import { createThemeStore, type ThemeTarget } from './useThemeStore';

function fakeTarget(systemDark: boolean) {
  const applied: { dark: boolean; animate: boolean }[] = [];
  let listener: ((dark: boolean) => void) | undefined;
  const target: ThemeTarget = {
    apply: (dark, animate) => void applied.push({ dark, animate }),
    systemPrefersDark: () => systemDark,
    onSystemChange: (l) => void (listener = l),
  };
  return { target, applied, systemChanges: (dark: boolean) => listener?.(dark) };
}

describe('useThemeStore', () => {
  it('follows the system preference on a first visit without storing a choice', () => {
    const storage = memoryStorage();
    const t = fakeTarget(true);
    const store = createThemeStore({ storage, target: t.target });
    expect(store.getState()).toMatchObject({ darkMode: true, chosen: false });
    expect(t.applied).toEqual([{ dark: true, animate: false }]);
    expect(storage.getItem(STORAGE_KEYS.darkMode)).toBeNull();
  });

  it('keeps following the system until the user chooses', () => {
    const t = fakeTarget(false);
    const store = createThemeStore({ storage: memoryStorage(), target: t.target });
    t.systemChanges(true);
    expect(store.getState().darkMode).toBe(true);
    store.getState().toggle();
    expect(store.getState()).toMatchObject({ darkMode: false, chosen: true });
    t.systemChanges(true);
    expect(store.getState().darkMode).toBe(false);
  });

  it('a stored choice wins over the system preference', () => {
    const t = fakeTarget(true);
    const store = createThemeStore({ storage: memoryStorage({ [STORAGE_KEYS.darkMode]: 'false' }), target: t.target });
    expect(store.getState()).toMatchObject({ darkMode: false, chosen: true });
    expect(t.applied.at(-1)).toEqual({ dark: false, animate: false });
  });

  it('toggling stores darkMode as a boolean string and animates the change', () => {
    const storage = memoryStorage();
    const t = fakeTarget(false);
    const store = createThemeStore({ storage, target: t.target });
    store.getState().toggle();
    expect(storage.getItem(STORAGE_KEYS.darkMode)).toBe('true');
    expect(t.applied.at(-1)).toEqual({ dark: true, animate: true });
    store.getState().toggle();
    expect(storage.getItem(STORAGE_KEYS.darkMode)).toBe('false');
  });

  it('ignores a stored value that is not a boolean', () => {
    const store = createThemeStore({ storage: memoryStorage({ [STORAGE_KEYS.darkMode]: 'maybe' }), target: fakeTarget(true).target });
    expect(store.getState()).toMatchObject({ darkMode: true, chosen: false });
  });
});
