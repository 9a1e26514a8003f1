import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { ForbiddenPage } from './forbidden.page';

const title: ResolveFn<string> = () => inject(STRINGS).forbidden.title;

export default [{ path: '', title, component: ForbiddenPage }] satisfies Routes;
