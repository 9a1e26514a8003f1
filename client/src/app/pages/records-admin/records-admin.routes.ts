import { Routes, ResolveFn } from '@angular/router';
import { inject } from '@angular/core';
import { STRINGS } from '../../i18n/strings';
import { RecordsAdminPage } from './records-admin.page';

const title: ResolveFn<string> = () => inject(STRINGS).recordsAdmin.title;

export default [{ path: '', title, component: RecordsAdminPage }] satisfies Routes;
