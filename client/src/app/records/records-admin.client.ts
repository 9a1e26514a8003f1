import { DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import PocketBase, { ClientResponseError, LocalAuthStore, getTokenPayload } from 'pocketbase';
import { ApiError, apiErrorFromBody } from '../core/api-error';
import {
  CollectionSchema,
  ListQuery,
  RealtimeEvent,
  RecordItem,
  RecordPage,
} from './records.types';

/** localStorage key of the superuser session (kept apart from the app users' session). */
export const ADMIN_AUTH_STORAGE_KEY = 'chorus.recordsAdmin.auth';
/** Refresh the token this long before it expires (or at three quarters of a shorter remaining life). */
const REFRESH_MARGIN_MS = 10 * 60_000;
/** Never schedule a refresh sooner than this (a token about to expire is refreshed right away). */
const MIN_REFRESH_DELAY_MS = 5_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2_147_483_647;
/** File tokens live 2 minutes on the server; reuse one for a bit less. */
const FILE_TOKEN_TTL_MS = 90_000;

/** Turns anything the SDK throws into the app's ApiError (status 0 = the server could not be reached). */
export function toRecordsError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ClientResponseError) {
    return error.status === 0
      ? new ApiError(0, '')
      : apiErrorFromBody(error.status, error.response);
  }
  return new ApiError(0, '');
}

/**
 * The records API for the /_/ admin panel, through the official `pocketbase` SDK: superuser session
 * (sign in, verification on start, automatic refresh before expiry, sign out), collections, records,
 * files and realtime. Any 401 from the API ends the session.
 */
@Injectable({ providedIn: 'root' })
export class RecordsAdminClient {
  readonly pb = new PocketBase('/', new LocalAuthStore(ADMIN_AUTH_STORAGE_KEY));

  private readonly account = signal<RecordItem | null>(null);
  /** The signed-in superuser, or null. */
  readonly superuser = this.account.asReadonly();
  readonly signedIn = computed(() => this.account() !== null);

  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private verified: Promise<void> | null = null;
  private fileToken: { token: string; until: number } | null = null;
  private readonly disconnectListeners = new Set<() => void>();

  constructor() {
    this.pb.autoCancellation(false);
    const store = this.pb.authStore;
    if (store.token && (!store.isValid || !store.isSuperuser)) {
      store.clear();
    }
    const off = store.onChange(() => this.sync(), true);
    this.pb.afterSend = (response, data: unknown) => {
      // A revoked or expired token: end the session (sign-in failures are 400, not 401).
      if (response.status === 401 && this.pb.authStore.token) {
        this.pb.authStore.clear();
      }
      return data;
    };
    this.pb.realtime.onDisconnect = () =>
      this.disconnectListeners.forEach((listener) => listener());
    inject(DestroyRef).onDestroy(() => {
      off();
      clearTimeout(this.refreshTimer);
    });
  }

  async signIn(email: string, password: string): Promise<void> {
    try {
      await this.pb.collection('_superusers').authWithPassword(email, password);
    } catch (error) {
      throw toRecordsError(error);
    }
    if (!this.pb.authStore.isSuperuser) {
      this.pb.authStore.clear();
      throw new ApiError(403, '');
    }
    this.verified = Promise.resolve();
  }

  /**
   * Checks a stored session once per page load (auth-refresh: a revoked token signs out). A network
   * failure keeps the session: the next call will tell.
   */
  verify(): Promise<void> {
    if (!this.signedIn()) return Promise.resolve();
    this.verified ??= this.refresh();
    return this.verified;
  }

  async refresh(): Promise<void> {
    try {
      await this.pb.collection('_superusers').authRefresh();
    } catch {
      // 401 cleared the store (afterSend); anything else leaves it as it is.
    }
  }

  signOut(): void {
    void this.pb.realtime.unsubscribe().catch(() => undefined);
    this.pb.authStore.clear();
    this.verified = null;
    this.fileToken = null;
  }

  // --- collections and records -------------------------------------------------------------

  async collections(): Promise<CollectionSchema[]> {
    return this.call(() =>
      this.pb.send<{ items: CollectionSchema[] }>('/api/collections', { query: { perPage: 500 } }),
    ).then((page) => page.items);
  }

  list(collection: string, query: ListQuery): Promise<RecordPage> {
    return this.call(() =>
      this.pb.collection(collection).getList<RecordItem>(query.page, query.perPage, {
        sort: query.sort || undefined,
        filter: query.filter || undefined,
      }),
    );
  }

  getOne(collection: string, id: string): Promise<RecordItem> {
    return this.call(() => this.pb.collection(collection).getOne<RecordItem>(id));
  }

  /** `body` may hold File values: the SDK then sends multipart with the rest as `@jsonPayload`. */
  create(collection: string, body: Record<string, unknown>): Promise<RecordItem> {
    return this.call(() => this.pb.collection(collection).create<RecordItem>(body));
  }

  update(collection: string, id: string, body: Record<string, unknown>): Promise<RecordItem> {
    return this.call(() => this.pb.collection(collection).update<RecordItem>(id, body));
  }

  delete(collection: string, id: string): Promise<void> {
    return this.call(() => this.pb.collection(collection).delete(id)).then(() => undefined);
  }

  /** Builds a filter with safely quoted `{:name}` parameters. */
  filter(expression: string, params: Record<string, unknown>): string {
    return this.pb.filter(expression, params);
  }

  // --- files ---------------------------------------------------------------------------------

  /** A short-lived token for protected files (reused while fresh). */
  async filesToken(): Promise<string> {
    if (this.fileToken && this.fileToken.until > Date.now()) return this.fileToken.token;
    const token = await this.call(() => this.pb.files.getToken());
    this.fileToken = { token, until: Date.now() + FILE_TOKEN_TTL_MS };
    return token;
  }

  fileUrl(
    record: RecordItem,
    filename: string,
    options: { thumb?: string; download?: boolean; token?: string } = {},
  ): string {
    return this.pb.files.getURL(record, filename, {
      thumb: options.thumb,
      download: options.download || undefined,
      token: options.token || undefined,
    });
  }

  // --- realtime ------------------------------------------------------------------------------

  /**
   * Subscribes to `<collection>/*`. `status` tells whether the realtime connection is up; `reconnected`
   * runs when it comes back after a drop (events may have been missed). Resolves with the function that
   * unsubscribes.
   */
  async watch(
    collection: string,
    handlers: {
      event: (event: RealtimeEvent) => void;
      status: (live: boolean) => void;
      reconnected: () => void;
    },
  ): Promise<() => Promise<void>> {
    let connected = false;
    const onDisconnect = () => handlers.status(false);
    this.disconnectListeners.add(onDisconnect);
    const offConnect = await this.pb.realtime.subscribe('PB_CONNECT', () => {
      if (connected) handlers.reconnected();
      connected = true;
      handlers.status(true);
    });
    let offEvents: () => Promise<void>;
    try {
      offEvents = await this.pb
        .collection(collection)
        .subscribe<RecordItem>('*', (event) => handlers.event(event as RealtimeEvent));
    } catch (error) {
      this.disconnectListeners.delete(onDisconnect);
      await offConnect().catch(() => undefined);
      throw toRecordsError(error);
    }
    connected = true;
    handlers.status(this.pb.realtime.isConnected);
    return async () => {
      this.disconnectListeners.delete(onDisconnect);
      await offEvents().catch(() => undefined);
      await offConnect().catch(() => undefined);
    };
  }

  // --- internals -----------------------------------------------------------------------------

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toRecordsError(error);
    }
  }

  private sync(): void {
    const store = this.pb.authStore;
    const ok = store.isValid && store.isSuperuser;
    this.account.set(ok ? ((store.record as RecordItem | null) ?? null) : null);
    clearTimeout(this.refreshTimer);
    if (!ok) return;
    const exp = Number(getTokenPayload(store.token)['exp']) * 1000;
    if (!Number.isFinite(exp)) return;
    const remaining = exp - Date.now();
    const margin = Math.min(REFRESH_MARGIN_MS, remaining / 4);
    const delay = Math.min(MAX_TIMER_MS, Math.max(MIN_REFRESH_DELAY_MS, remaining - margin));
    this.refreshTimer = setTimeout(() => void this.refresh(), delay);
  }
}
