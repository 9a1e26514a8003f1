import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { Router } from '@angular/router';
import { formatDateTime } from '../../core/format';
import { SessionService } from '../../core/session.service';
import { STRINGS } from '../../i18n/strings';
import { Icon } from '../../shared/icon';
import { ApiKeys } from './api-keys';

/** The signed-in user's account and API keys. */
@Component({
  selector: 'app-profile-page',
  imports: [MatButton, Icon, ApiKeys],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>{{ t.profile.title }}</h1>
    @if (session.user(); as user) {
      <section class="account" aria-labelledby="account-heading">
        <h2 id="account-heading">{{ t.profile.account }}</h2>
        <dl>
          <div>
            <dt>{{ t.profile.name }}</dt>
            <dd>{{ user.name || t.profile.noName }}</dd>
          </div>
          <div>
            <dt>{{ t.profile.email }}</dt>
            <dd>{{ user.email }}</dd>
          </div>
          <div>
            <dt>{{ t.profile.role }}</dt>
            <dd data-testid="role">
              {{ user.role === 'admin' ? t.profile.roles.admin : t.profile.roles.user }}
            </dd>
          </div>
          @if (joined()) {
            <div>
              <dt>{{ t.profile.joined }}</dt>
              <dd>{{ joined() }}</dd>
            </div>
          }
        </dl>
        <button mat-stroked-button type="button" (click)="signOut()">
          <app-icon name="logout" />
          {{ t.account.signOut }}
        </button>
      </section>
    }
    <app-api-keys />
  `,
  styles: `
    .account {
      margin-bottom: 2rem;
    }
    dl {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      gap: 0.75rem 1.5rem;
      margin: 0 0 1rem;
    }
    dt {
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-label-large);
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
  `,
})
export class ProfilePage {
  protected readonly t = inject(STRINGS);
  protected readonly session = inject(SessionService);
  private readonly router = inject(Router);
  protected readonly joined = computed(() =>
    formatDateTime(this.session.user()?.created, this.t.locale),
  );

  protected signOut(): void {
    this.session.signOut();
    void this.router.navigate(['/sign-in']);
  }
}
