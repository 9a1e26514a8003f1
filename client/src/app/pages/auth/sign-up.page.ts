import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { Router, RouterLink } from '@angular/router';
import { ApiError } from '../../core/api-error';
import { safeRedirect } from '../../core/guards';
import { SessionService, toSessionError } from '../../core/session.service';
import { STRINGS } from '../../i18n/strings';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';

/** Sign-up form: creates an account in the users collection, then signs in. */
@Component({
  selector: 'app-sign-up-page',
  imports: [
    FormsModule,
    MatFormField,
    MatLabel,
    MatHint,
    MatInput,
    MatButton,
    RouterLink,
    ErrorAlert,
    Icon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="sign-up-title">
      <app-icon class="badge" name="graphic_eq" />
      <h1 id="sign-up-title">{{ t.heading }}</h1>
      <p class="notice"><app-icon name="info" />{{ t.firstAdmin }}</p>
      <form (ngSubmit)="submit()">
        <mat-form-field appearance="outline">
          <mat-label>{{ t.name }}</mat-label>
          <input matInput name="name" autocomplete="name" maxlength="255" [(ngModel)]="name" />
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t.email }}</mat-label>
          <input
            matInput
            type="email"
            name="email"
            autocomplete="email"
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
            autocomplete="new-password"
            required
            minlength="8"
            [(ngModel)]="password"
          />
          <mat-hint>{{ t.passwordHint }}</mat-hint>
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t.passwordConfirm }}</mat-label>
          <input
            matInput
            type="password"
            name="passwordConfirm"
            autocomplete="new-password"
            required
            [(ngModel)]="passwordConfirm"
          />
        </mat-form-field>
        @if (error(); as e) {
          <app-error-alert
            [error]="e"
            [heading]="e.status === 400 && e.fieldList.length ? t.failed : ''"
          />
        }
        <button class="submit" mat-flat-button type="submit" [disabled]="busy()">
          {{ busy() ? t.submitting : t.submit }}
        </button>
      </form>
      <p class="switch">
        {{ t.haveAccount }}
        <a routerLink="/sign-in" [queryParams]="redirect() ? { redirect: redirect() } : {}">{{
          t.signInLink
        }}</a>
      </p>
    </section>
  `,
  styleUrl: './auth-card.scss',
})
export class SignUpPage {
  protected readonly t = inject(STRINGS).auth.signUp;
  private readonly session = inject(SessionService);
  private readonly router = inject(Router);

  readonly redirect = input<string>();

  protected name = '';
  protected email = '';
  protected password = '';
  protected passwordConfirm = '';
  protected readonly busy = signal(false);
  protected readonly error = signal<ApiError | null>(null);

  protected async submit(): Promise<void> {
    if (this.busy()) return;
    if (!this.email.trim() || !this.password) {
      this.error.set(new ApiError(400, this.t.missing));
      return;
    }
    if (this.password !== this.passwordConfirm) {
      this.error.set(new ApiError(400, this.t.mismatch));
      return;
    }
    this.busy.set(true);
    this.error.set(null);
    try {
      await this.session.signUp({
        email: this.email.trim(),
        password: this.password,
        name: this.name.trim(),
      });
      this.password = this.passwordConfirm = '';
      await this.router.navigateByUrl(safeRedirect(this.redirect()));
    } catch (error) {
      this.error.set(toSessionError(error));
    } finally {
      this.busy.set(false);
    }
  }
}
