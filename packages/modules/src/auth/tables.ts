// The auth module's tables, for migrations, tests and `kasse check` only (lint forbids them elsewhere).
export {
  authIdentity,
  authMfaChallenge,
  authMfaFactor,
  authMfaRecoveryCode,
  authOneTimeToken,
  providerIdentity,
} from "./schema";
