import { ChangeDetectionStrategy, Component, effect, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { Router, RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { RecordsAdminClient } from '../../records/records-admin.client';
import { ErrorAlert } from '../../shared/error-alert';
import { AdminIcon } from './admin-icon';
import { CollectionsStore } from './collections.store';

/** Frame of the signed-in admin: title bar with the account, collections nav with counts, routed content. */
@Component({
  selector: 'app-records-admin-layout',
  imports: [RouterOutlet, RouterLink, RouterLinkActive, MatButton, ErrorAlert, AdminIcon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './admin-layout.html',
  styleUrl: './admin-layout.scss',
})
export class AdminLayout {
  protected readonly t = inject(STRINGS).recordsAdmin;
  protected readonly client = inject(RecordsAdminClient);
  protected readonly store = inject(CollectionsStore);
  private readonly router = inject(Router);

  constructor() {
    void this.store.load();
    // The session ended (signed out, token revoked or expired): back to the sign-in form.
    effect(() => {
      if (!this.client.signedIn()) {
        void this.router.navigate(['/_', 'login']);
      }
    });
  }

  protected signOut(): void {
    this.client.signOut();
  }
}
