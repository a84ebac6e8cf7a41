import { jwtVerify, SignJWT } from "jose";
import { errors } from "@kasse/core";

/** The one answer to any unusable invite token: unknown, forged, used, deleted or expired. */
export const invalidInvite = () => errors.unauthorized("The invite is invalid, already used or expired");

const TYP = "kasse-invite+jwt";

export interface InviteTokens {
  /** The token handed to the invitee: a JWT carrying the invite's id, email and expiry, with the secret as `jti`. */
  sign(invite: { id: string; email: string; expires_at: Date }, secret: string): Promise<string>;
  /** The secret inside a token this issuer signed (signature, type and expiry checked); else {@link invalidInvite}. */
  secretOf(token: string): Promise<string>;
}

/**
 * Invite tokens in the form Medusa's admin dashboard reads (it decodes the token to show the
 * email and expiry): a JWT signed with `JWT_SECRET` whose `jti` is the invite's random secret.
 * The invite module stores only a hash of that secret and decides whether it is still usable; the
 * signature only keeps tokens from another deployment (or forged ones) from reaching the database.
 * @example
 * const tokens = createInviteTokens(config.jwt.secret);
 * const token = await tokens.sign(invite, secret);
 */
export function createInviteTokens(key: Uint8Array): InviteTokens {
  return {
    sign: (invite, secret) =>
      new SignJWT({ id: invite.id, email: invite.email })
        .setProtectedHeader({ alg: "HS256", typ: TYP })
        .setJti(secret)
        .setIssuedAt()
        .setExpirationTime(Math.floor(invite.expires_at.getTime() / 1000))
        .sign(key),
    async secretOf(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          typ: TYP,
          requiredClaims: ["jti", "exp"],
        });
        return payload.jti!;
      } catch {
        throw invalidInvite();
      }
    },
  };
}
