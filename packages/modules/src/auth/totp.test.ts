import { describe, expect, it } from "vitest";
import { base32Encode, matchTotp, otpauthUrl, totpCode, totpStep } from "./totp";

// RFC 6238 appendix B: the SHA-1 seed, codes truncated to the 6 digits authenticator apps show.
const seed = Buffer.from("12345678901234567890");

describe("TOTP (RFC 6238, SHA-1, 30 s, 6 digits)", () => {
  it("gives the RFC's test vectors", () => {
    expect(totpCode(seed, totpStep(59_000))).toBe("287082");
    expect(totpCode(seed, totpStep(1_111_111_109_000))).toBe("081804");
    expect(totpCode(seed, totpStep(1_234_567_890_000))).toBe("005924");
    expect(totpCode(seed, totpStep(20_000_000_000_000))).toBe("353130");
  });

  it("matches the current step and one either side, nothing further, and only six digits", () => {
    const at = 1_111_111_109_000;
    const step = totpStep(at);
    expect(matchTotp(seed, totpCode(seed, step), at)).toBe(step);
    expect(matchTotp(seed, totpCode(seed, step - 1), at)).toBe(step - 1);
    expect(matchTotp(seed, totpCode(seed, step + 1), at)).toBe(step + 1);
    expect(matchTotp(seed, totpCode(seed, step + 2), at)).toBeNull();
    expect(matchTotp(seed, totpCode(seed, step - 2), at)).toBeNull();
    expect(matchTotp(seed, ` ${totpCode(seed, step)}`, at)).toBeNull();
    expect(matchTotp(seed, "12345", at)).toBeNull();
  });

  it("encodes secrets in unpadded base32 inside an otpauth:// URI", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(otpauthUrl(seed, "ada@example.com", "Kasse Shop")).toBe(
      "otpauth://totp/Kasse%20Shop:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Kasse+Shop&algorithm=SHA1&digits=6&period=30",
    );
  });
});
