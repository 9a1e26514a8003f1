import { Injectable, inject } from '@angular/core';
import { Title } from '@angular/platform-browser';
import { RouterStateSnapshot, TitleStrategy } from '@angular/router';
import { STRINGS } from '../i18n/strings';

/** Document title "<page> · Chorus", from each route's `title`. */
@Injectable()
export class ChorusTitleStrategy extends TitleStrategy {
  private readonly title = inject(Title);
  private readonly t = inject(STRINGS);

  override updateTitle(snapshot: RouterStateSnapshot): void {
    const page = this.buildTitle(snapshot);
    this.title.setTitle(page ? `${page} · ${this.t.app.titleSuffix}` : this.t.app.titleSuffix);
  }
}
