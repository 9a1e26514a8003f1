import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { ProfilePage } from './profile.page';

const title: ResolveFn<string> = () => inject(STRINGS).profile.title;

export default [{ path: '', title, component: ProfilePage }] satisfies Routes;
