import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { RouterLink } from '@angular/router';
import { STRINGS } from '../../i18n/strings';

@Component({
  selector: 'app-forbidden-page',
  imports: [RouterLink],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>{{ t.forbidden.title }}</h1>
    <p>{{ t.forbidden.body }}</p>
    <p>
      <a routerLink="/">{{ t.forbidden.home }}</a>
    </p>
  `,
})
export class ForbiddenPage {
  protected readonly t = inject(STRINGS);
}
