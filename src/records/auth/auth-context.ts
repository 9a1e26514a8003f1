/** The auth collections a request can be authenticated as. */
export type AuthCollectionName = 'users' | '_superusers';

/**
 * Who is asking. `record` is the auth record as the records API shows it to its owner (hidden fields such as the
 * password hash and token key are never in it). Superusers bypass every collection rule; `isAdmin` is a user
 * whose role is `admin` (or a superuser).
 */
export interface AuthContext {
  readonly collection: AuthCollectionName;
  readonly collectionId: string;
  readonly record: Readonly<Record<string, unknown>> & { readonly id: string };
  readonly isSuperuser: boolean;
  readonly isAdmin: boolean;
  /** How the request was authenticated: `token` (records JWT) or the name of a plugged-in authenticator. */
  readonly method: string;
}

/**
 * A way to authenticate a request from its Authorization header. The records JWT is built in; other features
 * (API keys) add theirs with AuthService.registerAuthenticator(). Return null when the header is not yours.
 */
export interface Authenticator {
  readonly name: string;
  authenticate(authorization: string): Promise<AuthContext | null>;
}
