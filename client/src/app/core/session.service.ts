import { DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import PocketBase, { ClientResponseError, LocalAuthStore, getTokenPayload } from 'pocketbase';
import { ApiError, apiErrorFromBody } from './api-error';

/** localStorage key of the dashboard session (the /_/ superuser session has its own). */
export const SESSION_STORAGE_KEY = 'chorus.session';
/** Refresh the token this long before it expires (or at three quarters of a shorter remaining life). */
const REFRESH_MARGIN_MS = 24 * 60 * 60_000;
const MIN_REFRESH_DELAY_MS = 5_000;
const MAX_TIMER_MS = 2_147_483_647;

/** The signed-in account, as the records API shows it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'user' | string;
  avatar?: string;
  created?: string;
}

/** Why the last session ended, for the sign-in page to explain. */
export type SessionEnd = 'signedOut' | 'expired' | null;

/** Turns anything the pocketbase SDK throws into the app's ApiError (status 0 = server unreachable). */
export function toSessionError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ClientResponseError) {
    return error.status === 0
      ? new ApiError(0, '')
      : apiErrorFromBody(error.status, error.response);
  }
  return new ApiError(0, '');
}

/**
 * The dashboard session, through the official `pocketbase` SDK against the records API: sign up (the first
 * account becomes the administrator), sign in, a check of a stored session on start, refresh before expiry,
 * sign out. The token is kept in localStorage; `token()` is what the HTTP interceptor, the speech stream and
 * EventSource URLs use. The same SDK instance serves the records API (users list) and realtime.
 */
@Injectable({ providedIn: 'root' })
export class SessionService {
  readonly pb = new PocketBase('/', new LocalAuthStore(SESSION_STORAGE_KEY));

  private readonly account = signal<SessionUser | null>(null);
  private readonly currentToken = signal('');

  /** The signed-in user, or null. */
  readonly user = this.account.asReadonly();
  readonly token = this.currentToken.asReadonly();
  readonly signedIn = computed(() => this.account() !== null && this.currentToken() !== '');
  readonly isAdmin = computed(() => this.account()?.role === 'admin');
  /** Why the previous session ended (cleared by the next sign-in). */
  readonly ended = signal<SessionEnd>(null);

  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private verified: Promise<void> | null = null;

  constructor() {
    this.pb.autoCancellation(false);
    const store = this.pb.authStore;
    // Only app users' sessions belong here (a superuser signs in at /_/).
    if (store.token && (!store.isValid || store.isSuperuser)) store.clear();
    const off = store.onChange(() => this.sync(), true);
    this.pb.afterSend = (response, data: unknown) => {
      // A revoked or expired token ends the session (a failed sign-in is a 400, not a 401).
      if (response.status === 401 && this.pb.authStore.token) this.expire();
      return data;
    };
    inject(DestroyRef).onDestroy(() => {
      off();
      clearTimeout(this.refreshTimer);
    });
  }

  /** Creates an account, then signs in with it. */
  async signUp(input: { email: string; password: string; name: string }): Promise<void> {
    try {
      await this.pb.collection('users').create({
        email: input.email,
        password: input.password,
        passwordConfirm: input.password,
        name: input.name,
      });
    } catch (error) {
      throw toSessionError(error);
    }
    await this.signIn(input.email, input.password);
  }

  async signIn(email: string, password: string): Promise<void> {
    try {
      await this.pb.collection('users').authWithPassword(email, password);
    } catch (error) {
      throw toSessionError(error);
    }
    this.ended.set(null);
    this.verified = Promise.resolve();
  }

  /**
   * Checks a stored session once per page load (auth-refresh: a revoked token or deleted account signs out,
   * a changed role is picked up). A network failure keeps the session: the next call will tell.
   */
  verify(): Promise<void> {
    if (!this.signedIn()) return Promise.resolve();
    this.verified ??= this.refresh();
    return this.verified;
  }

  async refresh(): Promise<void> {
    try {
      await this.pb.collection('users').authRefresh();
    } catch {
      // 401 ended the session (afterSend); anything else leaves it as it is.
    }
  }

  signOut(): void {
    this.end('signedOut');
  }

  /** Ends the session because the server no longer accepts its token. */
  expire(): void {
    if (this.pb.authStore.token) this.end('expired');
  }

  /** Reloads the account (e.g. after a profile change). */
  async reloadUser(): Promise<void> {
    await this.refresh();
  }

  private end(reason: SessionEnd): void {
    void this.pb.realtime.unsubscribe().catch(() => undefined);
    this.pb.authStore.clear();
    this.verified = null;
    this.ended.set(reason);
  }

  private sync(): void {
    const store = this.pb.authStore;
    const record = store.record;
    if (store.token && record && store.isValid) {
      this.account.set({
        id: record.id,
        email: String(record['email'] ?? ''),
        name: String(record['name'] ?? ''),
        role: String(record['role'] ?? 'user'),
        avatar: typeof record['avatar'] === 'string' ? record['avatar'] : undefined,
        created: typeof record['created'] === 'string' ? record['created'] : undefined,
      });
      this.currentToken.set(store.token);
      this.scheduleRefresh(store.token);
    } else {
      this.account.set(null);
      this.currentToken.set('');
      clearTimeout(this.refreshTimer);
    }
  }

  private scheduleRefresh(token: string): void {
    clearTimeout(this.refreshTimer);
    const exp = Number(getTokenPayload(token)['exp']);
    if (!Number.isFinite(exp) || exp <= 0) return;
    const remaining = exp * 1000 - Date.now();
    const delay = Math.min(
      MAX_TIMER_MS,
      Math.max(MIN_REFRESH_DELAY_MS, Math.min(remaining - REFRESH_MARGIN_MS, remaining * 0.75)),
    );
    this.refreshTimer = setTimeout(() => void this.refresh(), delay);
  }
}
