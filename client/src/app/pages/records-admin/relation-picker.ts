import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import {
  MAT_DIALOG_DATA,
  MatDialogActions,
  MatDialogClose,
  MatDialogConfig,
  MatDialogContent,
  MatDialogRef,
  MatDialogTitle,
} from '@angular/material/dialog';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatRadioButton, MatRadioGroup } from '@angular/material/radio';
import { ApiError } from '../../core/api-error';
import { STRINGS } from '../../i18n/strings';
import { RecordsAdminClient, toRecordsError } from '../../records/records-admin.client';
import { CollectionSchema, RecordItem } from '../../records/records.types';
import { ErrorAlert } from '../../shared/error-alert';

export interface RelationPickerData {
  collection: CollectionSchema;
  multiple: boolean;
  selected: string[];
}

export function relationPickerConfig(
  data: RelationPickerData,
): MatDialogConfig<RelationPickerData> {
  return { data, width: '32rem', maxWidth: '100vw', ariaLabelledBy: 'picker-title' };
}

const PAGE_SIZE = 50;
/** Fields searched besides `id`, when the collection has them. */
const SEARCHED = ['name', 'email', 'title', 'url'];

/** Lists records of a relation's target collection (with search) and returns the chosen ids. */
@Component({
  selector: 'app-records-admin-relation-picker',
  imports: [
    FormsModule,
    MatButton,
    MatCheckbox,
    MatRadioGroup,
    MatRadioButton,
    MatDialogTitle,
    MatDialogContent,
    MatDialogActions,
    MatDialogClose,
    MatFormField,
    MatLabel,
    MatInput,
    MatProgressBar,
    ErrorAlert,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h2 mat-dialog-title id="picker-title">{{ t.title(data.collection.name) }}</h2>
    <mat-dialog-content>
      <form (ngSubmit)="load()" role="search">
        <mat-form-field appearance="outline" subscriptSizing="dynamic" class="search">
          <mat-label>{{ t.search }}</mat-label>
          <input matInput name="q" autocomplete="off" [(ngModel)]="query" />
        </mat-form-field>
      </form>
      <div class="progress">
        @if (loading()) {
          <mat-progress-bar mode="indeterminate" />
        }
      </div>
      @if (error(); as e) {
        <app-error-alert [error]="e" />
      }
      @if (data.multiple) {
        <ul [attr.aria-label]="data.collection.name">
          @for (r of items(); track r.id) {
            <li>
              <mat-checkbox
                [checked]="chosen().includes(r.id)"
                (change)="toggle(r.id, $event.checked)"
              >
                <span class="id">{{ r.id }}</span> {{ label(r) }}
              </mat-checkbox>
            </li>
          }
        </ul>
      } @else {
        <mat-radio-group
          [value]="chosen()[0]"
          (change)="chosen.set([$event.value])"
          [attr.aria-label]="data.collection.name"
        >
          @for (r of items(); track r.id) {
            <mat-radio-button [value]="r.id">
              <span class="id">{{ r.id }}</span> {{ label(r) }}
            </mat-radio-button>
          }
        </mat-radio-group>
      }
      @if (!loading() && !items().length && !error()) {
        <p class="empty">{{ t.empty }}</p>
      }
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button type="button" mat-dialog-close>{{ t.cancel }}</button>
      <button mat-flat-button type="button" (click)="done()">{{ t.done }}</button>
    </mat-dialog-actions>
  `,
  styles: `
    .search {
      width: 100%;
      margin-top: 0.25rem;
    }
    .progress {
      height: 4px;
      margin: 0.5rem 0;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    mat-radio-group {
      display: flex;
      flex-direction: column;
    }
    .id {
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      color: var(--mat-sys-on-surface-variant);
      margin-right: 0.5rem;
    }
    .empty {
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class RelationPicker {
  protected readonly t = inject(STRINGS).recordsAdmin.picker;
  protected readonly data = inject<RelationPickerData>(MAT_DIALOG_DATA);
  private readonly ref = inject<MatDialogRef<RelationPicker, string[]>>(MatDialogRef);
  private readonly client = inject(RecordsAdminClient);

  protected query = '';
  protected readonly items = signal<RecordItem[]>([]);
  protected readonly loading = signal(false);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly chosen = signal<string[]>([...this.data.selected]);
  private readonly searched = computed(() =>
    this.data.collection.fields
      .filter((f) => !f.hidden && SEARCHED.includes(f.name))
      .map((f) => f.name),
  );

  constructor() {
    void this.load();
  }

  protected async load(): Promise<void> {
    const q = this.query.trim();
    const filter = q
      ? ['id', ...this.searched()]
          .map((name) => this.client.filter(`${name} ~ {:q}`, { q }))
          .join(' || ')
      : '';
    this.loading.set(true);
    this.error.set(null);
    try {
      const page = await this.client.list(this.data.collection.name, {
        page: 1,
        perPage: PAGE_SIZE,
        sort: '-created',
        filter,
      });
      this.items.set(page.items);
    } catch (error) {
      const e = toRecordsError(error);
      this.error.set(new ApiError(e.status, e.message));
    } finally {
      this.loading.set(false);
    }
  }

  protected label(record: RecordItem): string {
    for (const name of this.searched()) {
      const value = record[name];
      if (typeof value === 'string' && value) return value;
    }
    return '';
  }

  protected toggle(id: string, checked: boolean): void {
    this.chosen.update((ids) => (checked ? [...ids, id] : ids.filter((x) => x !== id)));
  }

  protected done(): void {
    this.ref.close(this.chosen());
  }
}
