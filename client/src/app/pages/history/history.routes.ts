import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { PAGINATOR_INTL } from '../../shared/paginator-intl';
import { HistoryPage } from './history.page';

const title: ResolveFn<string> = () => inject(STRINGS).history.title;

export default [
  { path: '', title, providers: [PAGINATOR_INTL], component: HistoryPage },
] satisfies Routes;
