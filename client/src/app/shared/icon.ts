import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';

/**
 * Inline SVG icons (Material Symbols outlines, Apache-2.0), so nothing is fetched from the web.
 * Add an icon by adding its 24×24 path data here.
 */
const ICONS = {
  sun: 'M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10Zm0 8a3 3 0 1 1 0-6 3 3 0 0 1 0 6ZM11 1h2v3h-2Zm0 19h2v3h-2ZM1 11h3v2H1Zm19 0h3v2h-3ZM4.22 5.64l1.42-1.42 2.12 2.12-1.42 1.42Zm12.02 12.02 1.42-1.42 2.12 2.12-1.42 1.42ZM16.24 6.34l2.12-2.12 1.42 1.42-2.12 2.12ZM4.22 18.36l2.12-2.12 1.42 1.42-2.12 2.12Z',
  moon: 'M12 21a9 9 0 0 1 0-18c.3 0 .6 0 .9.04a7 7 0 0 0 8.06 8.06c.03.3.04.6.04.9a9 9 0 0 1-9 9Zm-1.95-15.8A7 7 0 1 0 18.8 13.95 9 9 0 0 1 10.05 5.2Z',
  play: 'M8 5v14l11-7Z',
  stop: 'M6 6h12v12H6Z',
  download: 'M5 20h14v-2H5Zm14-11h-4V3H9v6H5l7 7Z',
  error: 'M11 15h2v2h-2Zm0-8h2v6h-2Zm1-5a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16Z',
  graphic_eq: 'M7 18h2V6H7Zm4 4h2V2h-2Zm-8-8h2v-4H3Zm12 4h2V6h-2Zm4-8v4h2v-4Z',
} as const;

export type IconName = keyof typeof ICONS;

@Component({
  selector: 'app-icon',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'app-icon', 'aria-hidden': 'true' },
  template: `<svg viewBox="0 0 24 24" focusable="false"><path [attr.d]="path()" /></svg>`,
  styles: `
    :host {
      display: inline-flex;
      width: 1.5rem;
      height: 1.5rem;
      flex: none;
      vertical-align: middle;
    }
    svg {
      width: 100%;
      height: 100%;
      fill: currentColor;
    }
  `,
})
export class Icon {
  readonly name = input.required<IconName>();
  protected readonly path = computed(() => ICONS[this.name()]);
}
