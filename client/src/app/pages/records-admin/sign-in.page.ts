import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { Router } from '@angular/router';
import { ApiError } from '../../core/api-error';
import { STRINGS } from '../../i18n/strings';
import { RecordsAdminClient, toRecordsError } from '../../records/records-admin.client';
import { ErrorAlert } from '../../shared/error-alert';
import { AdminIcon } from './admin-icon';

/** Sign-in form of the records admin (superusers only). */
@Component({
  selector: 'app-records-admin-sign-in',
  imports: [FormsModule, MatFormField, MatLabel, MatInput, MatButton, ErrorAlert, AdminIcon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="sign-in-title">
      <app-admin-icon class="badge" name="lock" />
      <h1 id="sign-in-title">{{ t.signIn.title }}</h1>
      <p class="intro">{{ t.signIn.intro }}</p>
      <code class="command">{{ t.signIn.command }}</code>
      <form (ngSubmit)="submit()">
        <mat-form-field appearance="outline">
          <mat-label>{{ t.signIn.email }}</mat-label>
          <input
            matInput
            type="email"
            name="email"
            autocomplete="username"
            required
            [(ngModel)]="email"
          />
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t.signIn.password }}</mat-label>
          <input
            matInput
            type="password"
            name="password"
            autocomplete="current-password"
            required
            [(ngModel)]="password"
          />
        </mat-form-field>
        @if (error(); as e) {
          <app-error-alert [error]="e" />
        }
        <button mat-flat-button type="submit" [disabled]="busy()">
          {{ busy() ? t.signIn.submitting : t.signIn.submit }}
        </button>
      </form>
    </section>
  `,
  // Shares the dashboard's auth card; only the admin's differences are below.
  styleUrl: '../auth/auth-card.scss',
  styles: `
    :host {
      padding: 2rem 0;
    }
    .card {
      width: min(26rem, 100%);
    }
    .intro {
      margin: 0 0 0.5rem;
    }
    .command {
      display: block;
      margin: 0 0 1.5rem;
      padding: 0.5rem 0.75rem;
      border-radius: var(--mat-sys-corner-small);
      background: var(--mat-sys-surface-container-highest);
      font:
        0.8125rem / 1.4 ui-monospace,
        SFMono-Regular,
        Menlo,
        Consolas,
        monospace;
      overflow-wrap: anywhere;
    }
    button {
      align-self: flex-start;
    }
  `,
})
export class SignInPage {
  protected readonly t = inject(STRINGS).recordsAdmin;
  private readonly client = inject(RecordsAdminClient);
  private readonly router = inject(Router);

  /** Where to go after signing in (query parameter; only paths inside /_/). */
  readonly redirect = input<string>();

  protected email = '';
  protected password = '';
  protected readonly busy = signal(false);
  protected readonly error = signal<ApiError | null>(null);

  protected async submit(): Promise<void> {
    if (this.busy()) return;
    if (!this.email.trim() || !this.password) {
      this.error.set(new ApiError(400, this.t.signIn.missing));
      return;
    }
    this.busy.set(true);
    this.error.set(null);
    try {
      await this.client.signIn(this.email.trim(), this.password);
      this.password = '';
      const target = this.redirect();
      await this.router.navigateByUrl(target?.startsWith('/_/') ? target : '/_');
    } catch (error) {
      const e = toRecordsError(error);
      // 400 is PocketBase's generic "Failed to authenticate." (unknown account, wrong password, not a superuser).
      this.error.set(
        e.status === 400 || e.status === 403 ? new ApiError(e.status, this.t.signIn.failed) : e,
      );
    } finally {
      this.busy.set(false);
    }
  }
}
