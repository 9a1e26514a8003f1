import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  effect,
  input,
  viewChild,
} from '@angular/core';

/** Draws peaks (0–1) as a mirrored bar waveform in the theme's primary colour. */
@Component({
  selector: 'app-waveform',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<canvas #canvas role="img" [attr.aria-label]="label()"></canvas>`,
  styles: `
    :host {
      display: block;
      height: 3.5rem;
      color: var(--mat-sys-primary);
    }
    canvas {
      width: 100%;
      height: 100%;
      border-radius: var(--mat-sys-corner-small);
      background: var(--mat-sys-surface-container-highest);
    }
  `,
})
export class Waveform {
  readonly peaks = input.required<readonly number[]>();
  readonly label = input.required<string>();
  private readonly canvas = viewChild.required<ElementRef<HTMLCanvasElement>>('canvas');

  constructor() {
    effect(() => this.draw(this.peaks()));
  }

  private draw(peaks: readonly number[]): void {
    const canvas = this.canvas().nativeElement;
    const ratio = globalThis.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx || peaks.length === 0) return;
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = getComputedStyle(canvas).color || '#3f6ad8';
    const max = Math.max(0.05, ...peaks);
    const bar = width / peaks.length;
    for (let i = 0; i < peaks.length; i++) {
      const h = Math.max(1, (peaks[i] / max) * (height - 4));
      ctx.fillRect(i * bar, (height - h) / 2, Math.max(1, bar - 1), h);
    }
  }
}
