import { Injectable, Provider, inject } from '@angular/core';
import { MatPaginatorIntl } from '@angular/material/paginator';
import { STRINGS } from '../i18n/strings';

/** The paginator's labels from the app's strings. */
@Injectable()
export class PaginatorIntl extends MatPaginatorIntl {
  private readonly t = inject(STRINGS).paginator;
  override itemsPerPageLabel = this.t.perPage;
  override nextPageLabel = this.t.next;
  override previousPageLabel = this.t.previous;
  override firstPageLabel = this.t.first;
  override lastPageLabel = this.t.last;
  override getRangeLabel = (page: number, pageSize: number, length: number): string => {
    if (length === 0) return this.t.range(0, 0, 0);
    const from = page * pageSize + 1;
    const to = Math.min(length, (page + 1) * pageSize);
    return this.t.range(from, to, length);
  };
}

export const PAGINATOR_INTL: Provider = { provide: MatPaginatorIntl, useClass: PaginatorIntl };
