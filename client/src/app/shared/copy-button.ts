import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { STRINGS } from '../i18n/strings';
import { Icon } from './icon';

/** Copies `text` to the clipboard; says "Copied" (also to screen readers) for a moment. */
@Component({
  selector: 'app-copy-button',
  imports: [MatButton, Icon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <button mat-stroked-button type="button" (click)="copy()" [attr.aria-label]="label() || null">
      <app-icon [name]="copied() ? 'check' : 'copy'" />
      {{ copied() ? t.common.copied : t.common.copy }}
    </button>
    <span class="visually-hidden" role="status">{{ copied() ? t.common.copied : '' }}</span>
  `,
})
export class CopyButton {
  protected readonly t = inject(STRINGS);
  readonly text = input.required<string>();
  /** Accessible name when several copy buttons are on a page ("Copy the key"). */
  readonly label = input<string>('');
  protected readonly copied = signal(false);
  private timer: ReturnType<typeof setTimeout> | undefined;

  protected async copy(): Promise<void> {
    const text = this.text();
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard permission (e.g. plain http): fall back to a hidden textarea.
      const area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    this.copied.set(true);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.copied.set(false), 2000);
  }
}
