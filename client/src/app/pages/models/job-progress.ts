import { ChangeDetectionStrategy, Component, computed, inject, input, output } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatProgressBar } from '@angular/material/progress-bar';
import { Job } from '../../core/api-types';
import { formatBytes } from '../../core/format';
import { isJobFinished } from '../../core/jobs.store';
import { STRINGS } from '../../i18n/strings';
import { Icon } from '../../shared/icon';

/** Progress of one model pull on one worker: status in words, percentage, speed, a bar, the error if any. */
@Component({
  selector: 'app-job-progress',
  imports: [MatProgressBar, MatButton, Icon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'job', '[class.failed]': "job().status === 'error'" },
  template: `
    <div class="line">
      @if (job().status === 'complete') {
        <app-icon class="ok" name="check_circle" />
      } @else if (job().status === 'error') {
        <app-icon class="bad" name="error" />
      }
      <span class="text">
        <strong>{{ title() }}</strong>
        <span>{{ statusText() }}</span>
        @if (detail()) {
          <span class="detail">{{ detail() }}</span>
        }
      </span>
      @if (!finished() && cancellable()) {
        <button mat-button type="button" (click)="cancel.emit(job())">{{ t.jobs.cancel }}</button>
      }
    </div>
    @if (!finished()) {
      <mat-progress-bar
        [mode]="job().status === 'downloading' ? 'determinate' : 'indeterminate'"
        [value]="job().progress"
        [attr.aria-label]="t.jobs.progressLabel(title())"
      />
    }
    @if (job().status === 'error') {
      <p class="error" role="alert">{{ job().error || t.jobs.unknownError }}</p>
    }
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 0.375rem;
    }
    .line {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      min-height: 2.5rem;
    }
    .text {
      display: flex;
      flex-wrap: wrap;
      gap: 0 0.5rem;
      flex: 1 1 auto;
      font: var(--mat-sys-body-medium);
    }
    .detail {
      color: var(--mat-sys-on-surface-variant);
      font-variant-numeric: tabular-nums;
    }
    .ok {
      color: #2e9d4f;
    }
    .bad,
    .error {
      color: var(--mat-sys-error);
    }
    .error {
      margin: 0;
      font: var(--mat-sys-body-medium);
    }
  `,
})
export class JobProgress {
  protected readonly t = inject(STRINGS);
  readonly job = input.required<Job>();
  /** Heading of the line; default: the worker's name. */
  readonly label = input<string>('');
  readonly cancellable = input(true);
  readonly cancel = output<Job>();

  protected readonly finished = computed(() => isJobFinished(this.job()));
  protected readonly title = computed(() => this.label() || this.job().serverName);
  protected readonly statusText = computed(
    () => this.t.jobs.status[this.job().status] ?? this.job().status,
  );
  protected readonly detail = computed(() => {
    const job = this.job();
    if (job.status !== 'downloading') return '';
    const parts = [this.t.jobs.percent(Math.round(job.progress))];
    if (job.downloaded !== undefined && job.total) {
      parts.push(
        this.t.jobs.bytes(
          formatBytes(job.downloaded, this.t.locale),
          formatBytes(job.total, this.t.locale),
        ),
      );
    }
    if (job.speed) parts.push(job.speed);
    return parts.join(' · ');
  });
}
