import { randomBytes } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error';
import { CollectionRegistry } from '../collections/collection-registry';
import type { RecordData, ResolvedCollection } from '../collections/collection.types';
import { decodeRow } from '../record-codec';
import { toRecordJson } from '../record-view';
import { RECORDS_CONFIG, RecordsConfig } from '../records.config';
import { RecordsRepository } from '../records.repository';
import type { AuthCollectionName, AuthContext, Authenticator } from './auth-context';
import { decodeJwtUnverified, signJwt, verifyJwt } from './jwt';
import { ParamsRepository } from './params.repository';

type TokenType = 'auth' | 'file';

const SECRET_PARAM = 'recordsTokenSecret';
/** Where a request's resolved auth is cached, so guards, the decorator and services share one lookup. */
const AUTH_CACHE = Symbol('chorusAuth');

type RequestWithAuth = Request & { [AUTH_CACHE]?: Promise<AuthContext | null> };

/** The token in an Authorization header: `Bearer <token>` or the bare token (PocketBase accepts both). */
export function tokenFromHeader(header: string | undefined | null): string {
  const value = (header ?? '').trim();
  return value.replace(/^bearer\s+/i, '').trim();
}

/**
 * Authentication for the whole main service: records JWTs (HS256, signed with a server secret generated once and
 * kept in the database, plus the record's token key, so changing the key revokes its tokens), and any
 * authenticators other features plug in (API keys).
 */
@Injectable()
export class AuthService implements OnModuleInit {
  private secret = '';
  private readonly authenticators: Authenticator[] = [];
  /** Token key of the record behind each context built here (kept out of the context itself). */
  private readonly tokenKeys = new WeakMap<AuthContext, string>();

  constructor(
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
    private readonly params: ParamsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.secret = await this.params.getOrCreate(SECRET_PARAM, () => randomBytes(48).toString('base64url'));
  }

  /**
   * Adds a way to authenticate requests (e.g. API keys). Authenticators are tried in registration order after
   * the records JWT; the first non-null answer wins.
   */
  registerAuthenticator(authenticator: Authenticator): void {
    this.authenticators.push(authenticator);
  }

  /** Who the Authorization header belongs to, or null (missing, malformed, expired or revoked credentials). */
  async authenticate(authorizationHeader: string | undefined | null): Promise<AuthContext | null> {
    const token = tokenFromHeader(authorizationHeader);
    if (!token) {
      return null;
    }
    const fromJwt = await this.verifyToken(token, 'auth');
    if (fromJwt) {
      return fromJwt;
    }
    for (const authenticator of this.authenticators) {
      const context = await authenticator.authenticate(token);
      if (context) {
        return context;
      }
    }
    return null;
  }

  /** The request's auth, resolved once per request. */
  fromRequest(request: Request): Promise<AuthContext | null> {
    const carrier = request as RequestWithAuth;
    carrier[AUTH_CACHE] ??= this.authenticate(request.headers.authorization);
    return carrier[AUTH_CACHE];
  }

  /** A signed auth token for an auth record (claims: id, type, collectionId, refreshable, exp). */
  issueAuthToken(collection: ResolvedCollection, record: RecordData): string {
    const ttl =
      collection.name === '_superusers'
        ? this.config.superuserTokenTtlSeconds
        : this.config.authTokenTtlSeconds;
    return this.sign(collection, record, 'auth', ttl, { refreshable: true });
  }

  /** A short-lived token for protected files of the authenticated record. */
  async issueFileToken(auth: AuthContext): Promise<string> {
    const collection = this.registry.getAuth(auth.collection);
    const row = await this.records.findById(collection, auth.record.id);
    if (!row) {
      throw new ApiError(401, 'The request requires valid record authorization token.');
    }
    return this.sign(collection, decodeRow(collection, row), 'file', this.config.fileTokenTtlSeconds, {});
  }

  /** The auth behind a file token, or null. */
  verifyFileToken(token: string): Promise<AuthContext | null> {
    return this.verifyToken(token, 'file');
  }

  /** Builds the context of an auth record (e.g. right after sign-in). */
  contextFor(collection: ResolvedCollection, data: RecordData, method = 'token'): AuthContext {
    const isSuperuser = collection.name === '_superusers';
    const context: AuthContext = {
      collection: collection.name as AuthCollectionName,
      collectionId: collection.id,
      record: toRecordJson(collection, data, { showEmail: true }),
      isSuperuser,
      isAdmin: isSuperuser || data.role === 'admin',
      method,
    };
    if (typeof data.tokenKey === 'string') {
      this.tokenKeys.set(context, data.tokenKey);
    }
    return context;
  }

  /** The token key the context was built with ('' for contexts from plugged-in authenticators). */
  tokenKeyOf(context: AuthContext): string {
    return this.tokenKeys.get(context) ?? '';
  }

  private signingKey(collection: ResolvedCollection, tokenKey: string, type: TokenType): string {
    return `${type}:${this.secret}:${collection.id}:${tokenKey}`;
  }

  private sign(
    collection: ResolvedCollection,
    record: RecordData,
    type: TokenType,
    ttlSeconds: number,
    extra: Record<string, unknown>,
  ): string {
    const tokenKey = typeof record.tokenKey === 'string' ? record.tokenKey : '';
    if (!tokenKey || !this.secret) {
      throw new Error('cannot sign a token without a token key and the server secret');
    }
    const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
    return signJwt(
      { id: record.id, type, collectionId: collection.id, ...extra, exp },
      this.signingKey(collection, tokenKey, type),
    );
  }

  private async verifyToken(token: string, type: TokenType): Promise<AuthContext | null> {
    const claims = decodeJwtUnverified(token);
    if (
      !claims ||
      claims.type !== type ||
      typeof claims.id !== 'string' ||
      typeof claims.collectionId !== 'string'
    ) {
      return null;
    }
    const collection = this.registry.find(claims.collectionId);
    if (!collection || collection.type !== 'auth' || !this.secret) {
      return null;
    }
    const row = await this.records.findById(collection, claims.id);
    if (!row) {
      return null;
    }
    const data = decodeRow(collection, row);
    if (typeof data.tokenKey !== 'string' || !data.tokenKey) {
      return null;
    }
    if (!verifyJwt(token, this.signingKey(collection, data.tokenKey, type))) {
      return null;
    }
    return this.contextFor(collection, data);
  }
}
