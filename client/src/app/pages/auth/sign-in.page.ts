import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { Router, RouterLink } from '@angular/router';
import { ApiError } from '../../core/api-error';
import { safeRedirect } from '../../core/guards';
import { SessionService, toSessionError } from '../../core/session.service';
import { STRINGS } from '../../i18n/strings';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';

/** Sign-in form of the dashboard (users collection). */
@Component({
  selector: 'app-sign-in-page',
  imports: [FormsModule, MatFormField, MatLabel, MatInput, MatButton, RouterLink, ErrorAlert, Icon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="sign-in-title">
      <app-icon class="badge" name="graphic_eq" />
      <h1 id="sign-in-title">{{ t.heading }}</h1>
      <p class="intro">{{ t.intro }}</p>
      @if (session.ended() === 'expired') {
        <p class="notice" role="status"><app-icon name="info" />{{ t.expired }}</p>
      }
      <form (ngSubmit)="submit()">
        <mat-form-field appearance="outline">
          <mat-label>{{ t.email }}</mat-label>
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
          <mat-label>{{ t.password }}</mat-label>
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
        <button class="submit" mat-flat-button type="submit" [disabled]="busy()">
          {{ busy() ? t.submitting : t.submit }}
        </button>
      </form>
      <p class="switch">
        {{ t.noAccount }}
        <a routerLink="/sign-up" [queryParams]="redirect() ? { redirect: redirect() } : {}">{{
          t.signUpLink
        }}</a>
      </p>
    </section>
  `,
  styleUrl: './auth-card.scss',
})
export class SignInPage {
  protected readonly t = inject(STRINGS).auth.signIn;
  protected readonly session = inject(SessionService);
  private readonly router = inject(Router);

  /** Where to go after signing in (query parameter). */
  readonly redirect = input<string>();

  protected email = '';
  protected password = '';
  protected readonly busy = signal(false);
  protected readonly error = signal<ApiError | null>(null);

  protected async submit(): Promise<void> {
    if (this.busy()) return;
    if (!this.email.trim() || !this.password) {
      this.error.set(new ApiError(400, this.t.missing));
      return;
    }
    this.busy.set(true);
    this.error.set(null);
    try {
      await this.session.signIn(this.email.trim(), this.password);
      this.password = '';
      await this.router.navigateByUrl(safeRedirect(this.redirect()));
    } catch (error) {
      const e = toSessionError(error);
      // 400 is the generic "Failed to authenticate." (unknown account or wrong password).
      if (e.status === 400) this.error.set(new ApiError(400, this.t.failed));
      else if (e.status === 429) this.error.set(new ApiError(429, this.t.tooMany));
      else this.error.set(e);
    } finally {
      this.busy.set(false);
    }
  }
}
