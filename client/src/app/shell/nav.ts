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
}

export const NAV_ITEMS: readonly NavItem[] = [{ path: '/', label: (t) => t.nav.studio, exact: true }];
