// Renderer entry: apply the theme before the first paint, check a stored session, render the routes.

// base.css first: page styles imported by the screens must come after it in the bundle to win.
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { authStore } from './stores/useAuthStore';
import { getThemeStore } from './stores/useThemeStore';

getThemeStore();
void authStore.getState().restore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
