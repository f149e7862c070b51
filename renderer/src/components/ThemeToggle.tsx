// The dark/light switch shown in every header.

import type { ReactElement } from 'react';
import { useThemeStore } from '../stores/useThemeStore';
import { Icon } from './Icon';

export function ThemeToggle(): ReactElement {
  const darkMode = useThemeStore((s) => s.darkMode);
  const toggle = useThemeStore((s) => s.toggle);
  const label = darkMode ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      onClick={toggle}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      data-theme-state={darkMode ? 'dark' : 'light'}
    >
      <Icon name={darkMode ? 'sun' : 'moon'} />
    </button>
  );
}
