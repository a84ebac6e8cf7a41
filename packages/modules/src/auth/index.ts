export * from "./shapes";
export {
  createAuthService,
  actorIdOf,
  actorKey,
  hasProven,
  linkedActorTypes,
  type AuthService,
  type AuthServiceOptions,
  type ActorClaims,
  type SessionClaims,
  type SignIn,
} from "./service";
export { MFA_CHALLENGE, MFA_CODE_REQUIRED, type MfaChallenge, type MfaFactor, type MfaService } from "./mfa";
export { emailpassProvider, invalidCredentials, EMAILPASS } from "./providers/emailpass";
export type { AuthProvider, AuthResult, IdentityStore, ProviderInput } from "./providers/types";
export {
  hashPassword,
  hashNewPassword,
  verifyPassword,
  hashParams,
  DEFAULT_SCRYPT,
  type ScryptParams,
} from "./password";
export { createOneTimeTokenService, type OneTimeTokenService } from "./one-time-tokens";
export * from "./steps";
export {
  oauth2Provider,
  OAUTH_STATE_TTL_MS,
  type OAuth2Options,
  type OAuthProfile,
  type OAuthHttp,
} from "./providers/oauth2";
export { googleProvider, GOOGLE_DEFAULTS, type GoogleOptions } from "./providers/google";
export { githubProvider, GITHUB_DEFAULTS, type GithubOptions } from "./providers/github";
