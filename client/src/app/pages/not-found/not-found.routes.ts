import { Routes, ResolveFn } from '@angular/router';
import { inject } from '@angular/core';
import { STRINGS } from '../../i18n/strings';
import { NotFoundPage } from './not-found.page';

const title: ResolveFn<string> = () => inject(STRINGS).notFound.title;

export default [{ path: '', title, component: NotFoundPage }] satisfies Routes;
