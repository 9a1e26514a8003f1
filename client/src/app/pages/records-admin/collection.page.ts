import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  effect,
  inject,
  input,
  linkedSignal,
  signal,
  untracked,
} from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import {
  MatFormField,
  MatHint,
  MatLabel,
  MatPrefix,
  MatSuffix,
} from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatTooltip } from '@angular/material/tooltip';
import { ActivatedRoute, Router } from '@angular/router';
import { ApiError } from '../../core/api-error';
import { STRINGS } from '../../i18n/strings';
import { RecordsAdminClient, toRecordsError } from '../../records/records-admin.client';
import { cellText, fileNames, isImage, orderColumns } from '../../records/record-values';
import {
  FieldSchema,
  ListQuery,
  RealtimeEvent,
  RecordItem,
  RecordPage,
  visibleFields,
} from '../../records/records.types';
import { ErrorAlert } from '../../shared/error-alert';
import { AdminIcon } from './admin-icon';
import { CollectionsStore } from './collections.store';
import { RecordPanel, RecordPanelData, RecordPanelResult, recordPanelConfig } from './record-panel';

export const PER_PAGE_OPTIONS = [10, 30, 50, 100, 500] as const;
const DEFAULT_PER_PAGE = 30;
const DEFAULT_SORT = '-created';

type LiveState = 'connecting' | 'live' | 'offline';

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) && n >= 1 ? n : fallback;
}

/** /_/collections/:collection : the records of one collection (filter, sort, pages, realtime). */
@Component({
  selector: 'app-records-admin-collection',
  imports: [
    FormsModule,
    MatButton,
    MatIconButton,
    MatFormField,
    MatLabel,
    MatHint,
    MatPrefix,
    MatSuffix,
    MatInput,
    MatSelect,
    MatOption,
    MatProgressBar,
    MatTooltip,
    ErrorAlert,
    AdminIcon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './collection.page.html',
  styleUrl: './collection.page.scss',
})
export class CollectionPage {
  protected readonly t = inject(STRINGS).recordsAdmin;
  private readonly client = inject(RecordsAdminClient);
  private readonly store = inject(CollectionsStore);
  private readonly router = inject(Router);
  private readonly route = inject(ActivatedRoute);
  private readonly dialog = inject(MatDialog);

  // Route parameter and query parameters (component input binding).
  readonly collection = input<string>('');
  readonly filter = input<string>();
  readonly sort = input<string>();
  readonly page = input<string>();
  readonly perPage = input<string>();

  protected readonly perPageOptions = PER_PAGE_OPTIONS;
  protected readonly schema = computed(() => this.store.byName(this.collection()));
  private readonly exists = computed(() => !!this.schema());
  protected readonly notFound = computed(() => this.store.collections() !== null && !this.exists());
  protected readonly columns = computed(() => {
    const schema = this.schema();
    return schema ? orderColumns(visibleFields(schema)) : [];
  });
  protected readonly hasProtectedFiles = computed(() =>
    this.columns().some((f) => f.type === 'file' && f.protected),
  );

  protected readonly query = computed<ListQuery>(() => {
    const perPage = positiveInt(this.perPage(), DEFAULT_PER_PAGE);
    return {
      page: positiveInt(this.page(), 1),
      perPage: (PER_PAGE_OPTIONS as readonly number[]).includes(perPage)
        ? perPage
        : DEFAULT_PER_PAGE,
      sort: this.sort() ?? DEFAULT_SORT,
      filter: this.filter() ?? '',
    };
  });
  protected readonly sortState = computed(() => {
    const first = this.query().sort.split(',')[0]?.trim() ?? '';
    return { field: first.replace(/^[-+]/, ''), desc: first.startsWith('-') };
  });

  protected readonly result = signal<RecordPage | null>(null);
  protected readonly loading = signal(false);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly live = signal<LiveState>('connecting');
  protected readonly filterDraft = linkedSignal(() => this.query().filter);
  private readonly fileToken = signal('');

  protected readonly range = computed(() => {
    const r = this.result();
    if (!r || r.totalItems === 0) return null;
    const from = (r.page - 1) * r.perPage + 1;
    return {
      from,
      to: from + r.items.length - 1,
      total: r.totalItems,
      page: r.page,
      pages: r.totalPages,
    };
  });

  private seq = 0;

  constructor() {
    effect(() => {
      const name = this.collection();
      const query = this.query();
      if (!this.exists()) return;
      untracked(() => void this.load(name, query));
    });

    effect((onCleanup) => {
      const name = this.collection();
      if (!this.exists()) return;
      let off: (() => Promise<void>) | null = null;
      let cancelled = false;
      untracked(() => {
        this.live.set('connecting');
        this.client
          .watch(name, {
            event: (event) => this.onEvent(name, event),
            status: (up) => !cancelled && this.live.set(up ? 'live' : 'offline'),
            reconnected: () => !cancelled && void this.reload(true),
          })
          .then((unsubscribe) => (cancelled ? void unsubscribe() : (off = unsubscribe)))
          .catch(() => !cancelled && this.live.set('offline'));
      });
      onCleanup(() => {
        cancelled = true;
        void off?.();
      });
    });

    inject(DestroyRef).onDestroy(() => this.seq++);
  }

  // --- loading -----------------------------------------------------------------------------

  protected reload(quiet = false): Promise<void> {
    return this.load(this.collection(), this.query(), quiet);
  }

  protected refresh(): void {
    void this.reload();
    void this.store.load();
  }

  private async load(name: string, query: ListQuery, quiet = false): Promise<void> {
    const seq = ++this.seq;
    if (!quiet) this.loading.set(true);
    try {
      const page = await this.client.list(name, query);
      // Thumbs of protected files need a fresh file token (they last 2 minutes).
      const token = this.hasProtectedFiles() ? await this.client.filesToken().catch(() => '') : '';
      if (seq !== this.seq) return;
      this.fileToken.set(token);
      if (page.items.length === 0 && query.page > 1 && page.totalPages > 0) {
        this.go({ page: page.totalPages });
        return;
      }
      this.result.set(page);
      this.error.set(null);
      if (!query.filter) this.store.setCount(name, page.totalItems);
    } catch (error) {
      if (seq !== this.seq) return;
      const e = toRecordsError(error);
      // The API names the problem (e.g. where a filter broke) in `message`; the same text is in `data`.
      this.error.set(new ApiError(e.status, e.message));
      if (!quiet) this.result.set(null);
    } finally {
      if (seq === this.seq) this.loading.set(false);
    }
  }

  private onEvent(name: string, event: RealtimeEvent): void {
    if (name !== this.collection()) return;
    const id = event.record.id;
    switch (event.action) {
      case 'update':
        this.result.update((r) =>
          r ? { ...r, items: r.items.map((item) => (item.id === id ? event.record : item)) } : r,
        );
        break;
      case 'create':
        this.store.adjustCount(name, 1);
        void this.reload(true);
        break;
      case 'delete':
        this.store.adjustCount(name, -1);
        this.result.update((r) =>
          r
            ? {
                ...r,
                items: r.items.filter((item) => item.id !== id),
                totalItems: r.totalItems - 1,
              }
            : r,
        );
        void this.reload(true);
        break;
    }
  }

  // --- navigation (query parameters) -------------------------------------------------------

  private go(params: Record<string, string | number | null>): void {
    void this.router.navigate([], {
      relativeTo: this.route,
      queryParams: params,
      queryParamsHandling: 'merge',
    });
  }

  protected applyFilter(): void {
    const filter = this.filterDraft().trim();
    if (filter === this.query().filter) {
      void this.reload();
    } else {
      this.go({ filter: filter || null, page: null });
    }
  }

  protected clearFilter(): void {
    this.filterDraft.set('');
    this.go({ filter: null, page: null });
  }

  protected toggleSort(field: FieldSchema): void {
    const current = this.sortState();
    const sort = current.field === field.name && !current.desc ? `-${field.name}` : field.name;
    this.go({ sort, page: null });
  }

  protected ariaSort(field: FieldSchema): 'ascending' | 'descending' | 'none' {
    const s = this.sortState();
    return s.field !== field.name ? 'none' : s.desc ? 'descending' : 'ascending';
  }

  protected goToPage(page: number): void {
    this.go({ page: page > 1 ? page : null });
  }

  protected setPerPage(perPage: number): void {
    this.go({ perPage: perPage === DEFAULT_PER_PAGE ? null : perPage, page: null });
  }

  // --- cells ---------------------------------------------------------------------------------

  protected text(field: FieldSchema, record: RecordItem): string {
    return cellText(field, record[field.name]);
  }

  protected files(
    field: FieldSchema,
    record: RecordItem,
  ): { name: string; thumb: string | null }[] {
    return fileNames(record, field).map((name) => ({
      name,
      thumb: isImage(name)
        ? this.client.fileUrl(record, name, { thumb: '100x100', token: this.fileToken() })
        : null,
    }));
  }

  // --- record panel ----------------------------------------------------------------------------

  protected open(record: RecordItem | null): void {
    const schema = this.schema();
    if (!schema) return;
    const data: RecordPanelData = {
      collection: schema,
      record,
      collections: this.store.collections() ?? [],
    };
    this.dialog
      .open<RecordPanel, RecordPanelData, RecordPanelResult>(RecordPanel, recordPanelConfig(data))
      .afterClosed()
      .subscribe((result) => {
        if (!result) return;
        if (result.action === 'saved') {
          const saved = result.record;
          this.result.update((r) =>
            r ? { ...r, items: r.items.map((item) => (item.id === saved.id ? saved : item)) } : r,
          );
        } else {
          this.result.update((r) =>
            r ? { ...r, items: r.items.filter((item) => item.id !== result.id) } : r,
          );
        }
        void this.reload(true);
      });
  }

  protected openFromRow(event: MouseEvent, record: RecordItem): void {
    // Text selection inside a cell should not open the panel.
    if (globalThis.getSelection?.()?.toString()) return;
    event.preventDefault();
    this.open(record);
  }
}
