import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { STRINGS } from '../../i18n/strings';

/** Placeholder for the records admin panel at /_/ (superusers only; built later). */
@Component({
  selector: 'app-records-admin-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>{{ t.recordsAdmin.title }}</h1>
    <p>{{ t.recordsAdmin.body }}</p>
  `,
})
export class RecordsAdminPage {
  protected readonly t = inject(STRINGS);
}
