import { Strings } from '../i18n/strings';

/**
 * Top-level navigation. Add an entry here when a page gets its route in app.routes.ts
 * (planned: Voices, Models, History, Administration — see `Strings['nav']`).
 */
export interface NavItem {
  path: string;
  label: (t: Strings) => string;
  /** Exact match for the active state (needed for the '' route). */
  exact?: boolean;
  /** Who sees the entry: signed-in users, or administrators only (default: everyone). */
  access?: 'user' | 'admin';
}

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/', label: (t) => t.nav.studio, exact: true, access: 'user' },
  { path: '/voices', label: (t) => t.nav.voices, access: 'user' },
  { path: '/models', label: (t) => t.nav.models, access: 'user' },
  { path: '/history', label: (t) => t.nav.history, access: 'user' },
  { path: '/admin', label: (t) => t.nav.admin, access: 'admin' },
];
