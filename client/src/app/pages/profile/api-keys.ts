import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatOption, MatSelect } from '@angular/material/select';
import { Api, createApiKey, listApiKeys, revokeApiKey } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { ApiKey, CreatedApiKey } from '../../core/api-types';
import { formatDateTime, formatRelative } from '../../core/format';
import { STRINGS } from '../../i18n/strings';
import { ConfirmService } from '../../shared/confirm.service';
import { CopyButton } from '../../shared/copy-button';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';

/** The signed-in user's API keys: create (the key is shown once, with a copy button), list, revoke. */
@Component({
  selector: 'app-api-keys',
  imports: [
    FormsModule,
    MatButton,
    MatFormField,
    MatLabel,
    MatHint,
    MatInput,
    MatSelect,
    MatOption,
    CopyButton,
    ErrorAlert,
    Icon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './api-keys.html',
  styleUrl: './api-keys.scss',
})
export class ApiKeys {
  private readonly api = inject(Api);
  private readonly confirm = inject(ConfirmService);
  protected readonly t = inject(STRINGS);

  protected readonly keys = signal<ApiKey[] | null>(null);
  protected readonly loadError = signal<ApiError | null>(null);
  protected readonly createError = signal<ApiError | null>(null);
  protected readonly revokeError = signal<ApiError | null>(null);
  protected readonly created = signal<CreatedApiKey | null>(null);
  protected readonly busy = signal(false);
  protected readonly expiryChoices = [0, 30, 90, 365];
  protected readonly origin = globalThis.location?.origin ?? '';

  protected name = '';
  protected expiresInDays = 0;

  constructor() {
    void this.load();
  }

  async load(): Promise<void> {
    this.loadError.set(null);
    try {
      this.keys.set(await this.api.invoke(listApiKeys));
    } catch (e) {
      this.loadError.set(await toApiError(e));
    }
  }

  protected async create(): Promise<void> {
    if (this.busy()) return;
    const name = this.name.trim();
    if (!name) {
      this.createError.set(new ApiError(400, this.t.apiKeys.nameMissing));
      return;
    }
    this.busy.set(true);
    this.createError.set(null);
    this.created.set(null);
    try {
      const created = await this.api.invoke(createApiKey, {
        body: { name, ...(this.expiresInDays ? { expiresInDays: this.expiresInDays } : {}) },
      });
      this.created.set(created);
      this.name = '';
      await this.load();
    } catch (e) {
      this.createError.set(await toApiError(e));
    } finally {
      this.busy.set(false);
    }
  }

  protected async revoke(key: ApiKey): Promise<void> {
    const r = this.t.apiKeys.revoke;
    const ok = await this.confirm.ask({
      title: r.title(key.name),
      body: r.body,
      confirm: r.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    this.revokeError.set(null);
    try {
      await this.api.invoke(revokeApiKey, { id: key.id });
      if (this.created()?.id === key.id) this.created.set(null);
      await this.load();
    } catch (e) {
      this.revokeError.set(await toApiError(e));
    }
  }

  protected date(value: string): string {
    return value ? formatDateTime(value, this.t.locale) : '';
  }

  protected lastUsed(value: string): string {
    return value ? formatRelative(value, this.t.locale) : this.t.apiKeys.neverUsed;
  }

  protected expiryLabel(days: number): string {
    return days ? this.t.apiKeys.expiryDays(days) : this.t.apiKeys.noExpiry;
  }
}
