import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import {
  Api,
  checkInferenceServer,
  deleteInferenceServer,
  listInferenceServers,
  updateInferenceServer,
} from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { InferenceServer } from '../../core/api-types';
import { formatDateTime, formatRelative } from '../../core/format';
import { SessionService, toSessionError } from '../../core/session.service';
import { STRINGS } from '../../i18n/strings';
import { ConfirmService } from '../../shared/confirm.service';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';
import { ApiKeys } from '../profile/api-keys';
import { AddServerDialog, AddServerDialogData } from './add-server.dialog';

interface UserRow {
  id: string;
  name: string;
  email: string;
  role: string;
  created: string;
}

/** How often the server list is re-read while realtime is unavailable. */
const FALLBACK_POLL_MS = 5_000;

/**
 * Administration (admins): inference servers (live through the records realtime API on `inference_servers`),
 * the "Add server" dialog, the users with their roles, and the admin's API keys.
 */
@Component({
  selector: 'app-admin-page',
  imports: [MatButton, MatSlideToggle, ErrorAlert, Icon, ApiKeys],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './admin.page.html',
  styleUrl: './admin.page.scss',
})
export class AdminPage {
  private readonly api = inject(Api);
  private readonly session = inject(SessionService);
  private readonly dialog = inject(MatDialog);
  private readonly confirm = inject(ConfirmService);
  protected readonly t = inject(STRINGS);

  protected readonly servers = signal<InferenceServer[] | null>(null);
  protected readonly serversError = signal<ApiError | null>(null);
  protected readonly rowError = signal<{ id: string; error: ApiError } | null>(null);
  protected readonly busyRow = signal<string | null>(null);
  protected readonly live = signal(false);
  protected readonly users = signal<UserRow[] | null>(null);
  protected readonly usersError = signal<ApiError | null>(null);
  protected readonly now = signal(Date.now());
  protected readonly onlineCount = computed(
    () => (this.servers() ?? []).filter((s) => s.status === 'online').length,
  );

  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    void this.loadServers();
    void this.loadUsers();
    const destroyRef = inject(DestroyRef);
    let unsubscribe: (() => Promise<void>) | undefined;
    let destroyed = false;
    this.session.pb
      .collection('inference_servers')
      .subscribe('*', () => this.scheduleReload())
      .then((off) => {
        if (destroyed) void off().catch(() => undefined);
        else {
          unsubscribe = off;
          this.live.set(true);
        }
      })
      .catch(() => this.live.set(false));
    // Keeps "last check" times fresh, and re-reads the list when realtime is unavailable.
    const tick = setInterval(() => {
      this.now.set(Date.now());
      if (!this.live() && !document.hidden) void this.loadServers(true);
    }, FALLBACK_POLL_MS);
    destroyRef.onDestroy(() => {
      destroyed = true;
      clearInterval(tick);
      clearTimeout(this.reloadTimer);
      void unsubscribe?.().catch(() => undefined);
    });
  }

  async loadServers(quiet = false): Promise<void> {
    if (!quiet) this.serversError.set(null);
    try {
      this.servers.set(await this.api.invoke(listInferenceServers));
      this.serversError.set(null);
    } catch (e) {
      this.serversError.set(await toApiError(e));
    }
  }

  async loadUsers(): Promise<void> {
    this.usersError.set(null);
    try {
      const records = await this.session.pb.collection('users').getFullList({ sort: 'created' });
      this.users.set(
        records.map((r) => ({
          id: r.id,
          name: String(r['name'] ?? ''),
          email: String(r['email'] ?? ''),
          role: String(r['role'] ?? 'user'),
          created: String(r['created'] ?? ''),
        })),
      );
    } catch (e) {
      this.usersError.set(toSessionError(e));
    }
  }

  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.loadServers(true), 150);
  }

  protected addServer(): void {
    this.dialog.open<AddServerDialog, AddServerDialogData>(AddServerDialog, {
      data: { servers: this.servers, knownIds: new Set((this.servers() ?? []).map((s) => s.id)) },
      width: '46rem',
      maxWidth: '96vw',
      autoFocus: 'first-tabbable',
      ariaLabelledBy: 'add-server-title',
    });
  }

  protected async setEnabled(server: InferenceServer, enabled: boolean): Promise<void> {
    await this.rowAction(server, async () => {
      await this.api.invoke(updateInferenceServer, { id: server.id, body: { enabled } });
    });
  }

  protected async check(server: InferenceServer): Promise<void> {
    await this.rowAction(server, async () => {
      await this.api.invoke(checkInferenceServer, { id: server.id });
    });
  }

  protected async remove(server: InferenceServer): Promise<void> {
    const r = this.t.admin.servers.remove;
    const ok = await this.confirm.ask({
      title: r.title(server.name),
      body: r.body,
      confirm: r.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    await this.rowAction(server, async () => {
      await this.api.invoke(deleteInferenceServer, { id: server.id });
    });
  }

  private async rowAction(server: InferenceServer, action: () => Promise<void>): Promise<void> {
    this.busyRow.set(server.id);
    this.rowError.set(null);
    try {
      await action();
    } catch (e) {
      this.rowError.set({ id: server.id, error: await toApiError(e) });
    } finally {
      this.busyRow.set(null);
      await this.loadServers(true);
    }
  }

  protected lastCheck(server: InferenceServer): string {
    this.now();
    return server.lastCheck
      ? formatRelative(server.lastCheck, this.t.locale)
      : this.t.admin.servers.neverChecked;
  }

  protected lastCheckTitle(server: InferenceServer): string {
    return formatDateTime(server.lastCheck, this.t.locale);
  }

  protected joined(user: UserRow): string {
    return formatDateTime(user.created, this.t.locale);
  }
}
