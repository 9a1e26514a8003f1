/** Locale-aware formatting helpers (the locale comes from the strings: `t.locale`). */

/** PocketBase dates ("2026-01-01 12:00:00.000Z") and ISO strings → Date, or null. */
export function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value.includes('T') ? value : value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "21 Nov 2026, 14:05". */
export function formatDateTime(value: string | null | undefined, locale: string): string {
  const date = parseDate(value);
  return date
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
    : '';
}

export function formatTime(value: string | null | undefined, locale: string): string {
  const date = parseDate(value);
  return date ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date) : '';
}

/** "3 minutes ago", "in 59 minutes". */
export function formatRelative(
  value: string | null | undefined,
  locale: string,
  now = Date.now(),
): string {
  const date = parseDate(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

/** Sizes the way model hubs show them (decimal units): "63.2 MB". */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** Seconds → "0:04" / "1:02:03". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** Seconds with one decimal: "12.8 s". */
export function formatSeconds(seconds: number, locale: string): string {
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(seconds)} s`;
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** "en" → "English", "en-gb"/"en_GB" → "English (United Kingdom)"; unknown codes are returned as given. */
export function languageName(code: string, locale: string): string {
  if (!code) return '';
  let names = displayNames.get(locale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([locale], { type: 'language' });
    } catch {
      names = null;
    }
    displayNames.set(locale, names);
  }
  try {
    return names?.of(code.replace('_', '-')) ?? code;
  } catch {
    return code;
  }
}

/** A random token for secrets made in the browser (hex, `bytes` random bytes). */
export function randomHex(bytes = 32): string {
  const data = new Uint8Array(bytes);
  crypto.getRandomValues(data);
  return Array.from(data, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Triggers a download of a Blob under `fileName`. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
