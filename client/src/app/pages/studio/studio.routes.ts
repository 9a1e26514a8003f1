import { Routes, ResolveFn } from '@angular/router';
import { inject } from '@angular/core';
import { STRINGS } from '../../i18n/strings';
import { StudioPage } from './studio.page';

const title: ResolveFn<string> = () => inject(STRINGS).studio.title;

export default [{ path: '', title, component: StudioPage }] satisfies Routes;
