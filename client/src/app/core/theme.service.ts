import { DOCUMENT, Injectable, computed, inject, signal } from '@angular/core';

export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'chorus.theme';
const CLASS_PREFIX = 'theme-';

function readStoredTheme(): Theme | null {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Applies a stored theme choice to <html> before Angular starts (called from main.ts), so the page
 * never flashes in the wrong theme. Without a stored choice the CSS follows prefers-color-scheme.
 */
export function applyStoredTheme(doc: Document = document): void {
  const theme = readStoredTheme();
  if (theme) doc.documentElement.classList.add(CLASS_PREFIX + theme);
}

/**
 * Light/dark theme. By default follows the operating system (prefers-color-scheme); an explicit
 * choice is remembered in localStorage.
 */
@Injectable({ providedIn: 'root' })
export class ThemeService {
  private readonly doc = inject(DOCUMENT);
  private readonly media = this.doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)');
  private readonly systemDark = signal(this.media?.matches ?? false);

  /** The explicit choice, or null when following the system. */
  readonly choice = signal<Theme | null>(readStoredTheme());
  /** The theme actually shown. */
  readonly theme = computed<Theme>(() => this.choice() ?? (this.systemDark() ? 'dark' : 'light'));

  constructor() {
    this.media?.addEventListener?.('change', (e) => this.systemDark.set(e.matches));
    this.apply(this.choice());
  }

  toggle(): void {
    this.set(this.theme() === 'dark' ? 'light' : 'dark');
  }

  set(theme: Theme | null): void {
    this.choice.set(theme);
    try {
      if (theme) localStorage.setItem(STORAGE_KEY, theme);
      else localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
    this.apply(theme);
  }

  private apply(theme: Theme | null): void {
    const classes = this.doc.documentElement.classList;
    classes.remove(CLASS_PREFIX + 'light', CLASS_PREFIX + 'dark');
    if (theme) classes.add(CLASS_PREFIX + theme);
  }
}
