import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { AdminPage } from './admin.page';

const title: ResolveFn<string> = () => inject(STRINGS).admin.title;

export default [{ path: '', title, component: AdminPage }] satisfies Routes;
