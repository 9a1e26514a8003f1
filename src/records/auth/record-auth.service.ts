import { Injectable } from '@nestjs/common';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { CollectionRegistry } from '../collections/collection-registry';
import type { RecordData, ResolvedCollection } from '../collections/collection.types';
import { pickFields } from '../filter';
import { decodeRow } from '../record-codec';
import { RecordEnricher, parseFieldsParam } from '../record-enricher';
import { isEmail } from '../record-input';
import type { RecordJson } from '../record-view';
import { RecordsRepository } from '../records.repository';
import { QueryParams, queryString } from '../records.service';
import { RequestInfo, RuleEngine } from '../rules';
import type { AuthContext } from './auth-context';
import { AuthService } from './auth.service';
import { LoginThrottle } from './login-throttle';
import { dummyPasswordHash, verifyPassword } from './password';

export interface AuthResponse {
  token: string;
  record: RecordJson;
}

/** PocketBase's auth-methods answer: password sign-in with the e-mail as identity; nothing else is offered. */
export interface AuthMethods {
  password: { enabled: boolean; identityFields: string[] };
  oauth2: { enabled: boolean; providers: unknown[] };
  mfa: { enabled: boolean; duration: number };
  otp: { enabled: boolean; duration: number };
  authProviders: unknown[];
  usernamePassword: boolean;
  emailPassword: boolean;
}

/** Sign-in, token refresh and auth methods of the auth collections. */
@Injectable()
export class RecordAuthService {
  constructor(
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
    private readonly rules: RuleEngine,
    private readonly enricher: RecordEnricher,
    private readonly auth: AuthService,
    private readonly throttle: LoginThrottle,
  ) {}

  authMethods(collectionRef: string, query: QueryParams): AuthMethods {
    this.registry.getAuth(collectionRef);
    const selection = parseFieldsParam(queryString(query, 'fields'));
    const methods: AuthMethods = {
      password: { enabled: true, identityFields: ['email'] },
      oauth2: { enabled: false, providers: [] },
      mfa: { enabled: false, duration: 0 },
      otp: { enabled: false, duration: 0 },
      authProviders: [],
      usernamePassword: false,
      emailPassword: true,
    };
    return selection ? (pickFields(methods, selection) as AuthMethods) : methods;
  }

  /**
   * Signs in with e-mail and password. Unknown account and wrong password answer alike (and cost alike: the
   * unknown case checks a dummy hash); repeated failures for one IP and identity answer 429.
   */
  async authWithPassword(
    collectionRef: string,
    body: unknown,
    ip: string,
    query: QueryParams,
  ): Promise<AuthResponse> {
    const collection = this.registry.getAuth(collectionRef);
    const { identity, password } = readCredentials(body);
    if (this.throttle.isBlocked(ip, collection.name, identity)) {
      throw new ApiError(429, 'Too many failed sign-in attempts. Try again later.');
    }
    const email = identity.trim().toLowerCase();
    const row = isEmail(email)
      ? await this.records.findByField(collection, collection.fieldsByName.get('email')!, email)
      : null;
    const data = row ? decodeRow(collection, row) : null;
    const hash =
      typeof data?.password === 'string' && data.password ? data.password : await dummyPasswordHash();
    const valid = await verifyPassword(password, hash);
    if (!data || !valid) {
      this.throttle.recordFailure(ip, collection.name, identity);
      throw ApiError.badRequest('Failed to authenticate.');
    }
    this.throttle.recordSuccess(ip, collection.name, identity);
    if (
      !(await this.rules.canAccessStored(collection, String(data.id), collection.rules.auth ?? '', {
        auth: null,
        context: 'password',
      }))
    ) {
      throw new ApiError(403, "The request doesn't satisfy the collection requirements to authenticate.");
    }
    return this.respond(collection, data, this.auth.issueAuthToken(collection, data), query);
  }

  /** A fresh token for the caller's own auth record (401 without auth, 403 from another collection). */
  async authRefresh(
    collectionRef: string,
    caller: AuthContext | null,
    query: QueryParams,
  ): Promise<AuthResponse> {
    const collection = this.registry.getAuth(collectionRef);
    if (!caller) {
      throw new ApiError(401, 'The request requires valid record authorization token.');
    }
    if (caller.collectionId !== collection.id) {
      throw new ApiError(403, `The request requires auth record from ${caller.collection} collection.`);
    }
    const row = await this.records.findById(collection, caller.record.id);
    if (!row) {
      throw ApiError.notFound('Missing auth record context.');
    }
    const data = decodeRow(collection, row);
    return this.respond(collection, data, this.auth.issueAuthToken(collection, data), query);
  }

  private async respond(
    collection: ResolvedCollection,
    data: RecordData,
    token: string,
    query: QueryParams,
  ): Promise<AuthResponse> {
    const selection = parseFieldsParam(queryString(query, 'fields'));
    const info: RequestInfo = { auth: this.auth.contextFor(collection, data), context: 'default' };
    const [record] = await this.enricher.enrich(collection, [data], info, {
      expand: queryString(query, 'expand'),
    });
    const response: AuthResponse = { token, record };
    return selection ? (pickFields(response, selection) as AuthResponse) : response;
  }
}

function readCredentials(body: unknown): { identity: string; password: string } {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const errors: Record<string, FieldError> = {};
  const read = (name: string): string => {
    const value = source[name];
    if (typeof value !== 'string' || value === '') {
      errors[name] = { code: 'validation_required', message: 'Cannot be blank.' };
      return '';
    }
    if (value.length > 255) {
      errors[name] = {
        code: 'validation_length_out_of_range',
        message: 'The length must be between 1 and 255.',
      };
    }
    return value;
  };
  const identity = read('identity');
  const password = read('password');
  if (Object.keys(errors).length > 0) {
    throw ApiError.badRequest('An error occurred while validating the submitted data.', errors);
  }
  return { identity, password };
}
