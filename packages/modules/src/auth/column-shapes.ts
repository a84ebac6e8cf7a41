// The values two columns hold (a factor's provider, a challenge's method), in typebox: the tables
// type their columns with them and the request schemas take them, so neither file imports the other.
import { Type, type Static } from "@sinclair/typebox";

/** The second factors offered: an authenticator app (RFC 6238 TOTP). */
export const MfaProvider = Type.Literal("totp");
export type MfaProvider = Static<typeof MfaProvider>;
/** How a challenge or a disable is answered: a TOTP code or a recovery code. */
export const MfaMethod = Type.Union([MfaProvider, Type.Literal("recovery_code")]);
export type MfaMethod = Static<typeof MfaMethod>;
