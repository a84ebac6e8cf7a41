import type { TSchema } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { allowedValues, ConfigError, EnvSchema, loadBaseConfig } from "./config";

const properties = Object.entries(EnvSchema.properties as Record<string, TSchema>);

/** A value the schema refuses, or undefined for a free string (any value goes). */
function badValue(schema: TSchema): string | undefined {
  if (Array.isArray(schema.anyOf)) return "bogus";
  if (schema.type === "boolean") return "maybe";
  if (schema.type === "integer") return "x";
  if (schema.pattern) return "!! not this !!";
  return undefined;
}

const problemOf = (env: Record<string, string>) => {
  try {
    loadBaseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe("a configuration error", () => {
  it("says, for every variable with a union, a boolean, an integer or a pattern, the values it allows", () => {
    let checked = 0;
    for (const [name, schema] of properties) {
      // A pattern is described in words: a regular expression tells an operator little.
      if (schema.pattern) expect(schema.expected, name).toEqual(expect.any(String));
      const bad = badValue(schema);
      if (bad === undefined) continue;
      checked++;
      const allowed = allowedValues(schema);
      expect(allowed, name).not.toMatch(/^a string$/);
      const message = problemOf({ [name]: bad });
      expect(message, name).toBe(
        `Invalid configuration:\n  ${/SECRET|PASSWORD|_URL$/.test(name) ? name : `${name}=${bad}`}: expected ${allowed}`,
      );
    }
    expect(checked).toBeGreaterThan(20);
    expect(problemOf({ LOG_LEVEL: "verbose" })).toBe(
      "Invalid configuration:\n  LOG_LEVEL=verbose: expected one of fatal, error, warn, info, debug, trace, silent",
    );
    // A secret's value is never repeated.
    expect(problemOf({ JWT_SECRET: "short" })).toBe(
      "Invalid configuration:\n  JWT_SECRET: expected at least 16 characters",
    );
  });
});

describe("the Redis prefix", () => {
  const prefixOf = (env: Record<string, string>) => loadBaseConfig(env).redisPrefix;

  it("is one per install: derived from the database's host, port and name, or from the data folder, unless set", () => {
    const shop = prefixOf({ DATABASE_URL: "postgres://kasse:secret@db.example:5432/shop" });
    expect(shop).toMatch(/^kasse-[0-9a-f]{8}$/);
    // Every process of the install, whatever its credentials or options, shares it.
    expect(prefixOf({ DATABASE_URL: "postgres://other@DB.example:5432/shop?sslmode=require" })).toBe(shop);
    expect(prefixOf({ DATABASE_URL: "postgres://kasse:secret@db.example:5432/staging" })).not.toBe(shop);
    expect(prefixOf({ DATABASE_URL: "postgres://kasse:secret@db.example:5433/shop" })).not.toBe(shop);
    expect(prefixOf({ KASSE_DATA_DIR: "/srv/a" })).not.toBe(prefixOf({ KASSE_DATA_DIR: "/srv/b" }));
    expect(prefixOf({ DATABASE_URL: "postgres://db/shop", REDIS_PREFIX: "{shop}" })).toBe("{shop}");
    expect(problemOf({ REDIS_PREFIX: "a:b" })).toBe(
      "Invalid configuration:\n  REDIS_PREFIX=a:b: expected 1 to 64 letters, digits, or . _ - { }",
    );
    expect(problemOf({ DATABASE_URL: "not a url" })).toBe(
      "Invalid configuration:\n  DATABASE_URL: expected a URL such as postgres://user:password@host:5432/database",
    );
  });
});

describe("the file storage", () => {
  it("is the local disk by default; s3 needs a bucket and both keys or neither, each said in one line", () => {
    expect(
      loadBaseConfig({ KASSE_DATA_DIR: "/srv/kasse", PUBLIC_URL: "https://api.shop.example/" }).files.storage,
    ).toEqual({
      provider: "local",
      dir: "/srv/kasse/uploads",
      baseUrl: "https://api.shop.example/static/uploads",
    });
    expect(problemOf({ FILE_PROVIDER: "gcs" })).toBe(
      "Invalid configuration:\n  FILE_PROVIDER=gcs: expected one of local, s3",
    );
    expect(problemOf({ FILE_PROVIDER: "s3" })).toBe(
      "Invalid configuration:\n  S3_BUCKET: required when FILE_PROVIDER=s3",
    );
    expect(problemOf({ FILE_PROVIDER: "s3", S3_BUCKET: "shop", S3_ACCESS_KEY_ID: "AKIA1" })).toBe(
      "Invalid configuration:\n  S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID (set both, or neither for the SDK's credential chain)",
    );
    expect(problemOf({ S3_BUCKET: "Shop_Images" })).toBe(
      "Invalid configuration:\n  S3_BUCKET=Shop_Images: expected a bucket name: 3 to 63 lowercase letters, digits, . and -",
    );
    expect(
      loadBaseConfig({
        FILE_PROVIDER: "s3",
        S3_BUCKET: "shop",
        S3_REGION: "auto",
        S3_ENDPOINT: "https://acct.r2.example",
        S3_PREFIX: "kasse/",
        FILE_BASE_URL: "https://cdn.shop.example/",
      }).files.storage,
    ).toEqual({
      provider: "s3",
      bucket: "shop",
      region: "auto",
      endpoint: "https://acct.r2.example",
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      prefix: "kasse/",
      baseUrl: "https://cdn.shop.example",
    });
  });
});

describe("Stripe", () => {
  const stripe = { STRIPE_API_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_123" };

  it("is configured by its key and webhook secret: manual capture by default, Stripe's API unless a URL is given", () => {
    expect(loadBaseConfig({}).payments.stripe).toBeUndefined();
    expect(loadBaseConfig(stripe).payments.stripe).toEqual({
      apiKey: "sk_test_123",
      webhookSecret: "whsec_123",
      capture: "manual",
      apiUrl: undefined,
    });
    expect(
      loadBaseConfig({ ...stripe, STRIPE_CAPTURE: "automatic", STRIPE_API_URL: "http://127.0.0.1:12111" }).payments
        .stripe,
    ).toMatchObject({ capture: "automatic", apiUrl: "http://127.0.0.1:12111" });
  });

  it("refuses a capture mode it does not know, a URL with a path, and a half configuration, never quoting a secret", () => {
    expect(problemOf({ ...stripe, STRIPE_CAPTURE: "later" })).toBe(
      "Invalid configuration:\n  STRIPE_CAPTURE=later: expected one of manual, automatic",
    );
    expect(problemOf({ ...stripe, STRIPE_API_URL: "http://stripe.test/v1" })).toBe(
      "Invalid configuration:\n  STRIPE_API_URL: expected http(s)://host[:port], e.g. http://127.0.0.1:12111",
    );
    expect(problemOf({ STRIPE_API_KEY: "sk_test_123" })).toMatch(/STRIPE_WEBHOOK_SECRET: required with STRIPE_API_KEY/);
    expect(problemOf({ STRIPE_WEBHOOK_SECRET: "whsec_123" })).toMatch(/STRIPE_API_KEY: required/);
    expect(problemOf({ STRIPE_API_KEY: "sk_test_123" })).not.toContain("sk_test_123");
  });
});
