import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { RouterLink } from '@angular/router';
import { STRINGS } from '../../i18n/strings';

@Component({
  selector: 'app-not-found-page',
  imports: [RouterLink],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>{{ t.notFound.title }}</h1>
    <p>{{ t.notFound.body }}</p>
    <p><a routerLink="/">{{ t.notFound.home }}</a></p>
  `,
})
export class NotFoundPage {
  protected readonly t = inject(STRINGS);
}
