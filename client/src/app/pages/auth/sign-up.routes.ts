import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { SignUpPage } from './sign-up.page';

const title: ResolveFn<string> = () => inject(STRINGS).auth.signUp.title;

export default [{ path: '', title, component: SignUpPage }] satisfies Routes;
