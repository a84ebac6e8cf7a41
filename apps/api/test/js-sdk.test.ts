import { beforeAll, describe, expect, it } from "vitest";
import { sdkFailure } from "../src/testing/sdk";
import Medusa from "@medusajs/js-sdk";
import { createUserAccount } from "@kasse/flows";
import { EMAILPASS } from "@kasse/modules/auth";
import { useTestApp } from "../src/testing";

// Medusa's own client, unchanged, against a listening Kasse: paths, bodies, query encoding (qs),
// auth transport and response keys must all be what the SDK sends and reads.

/**
 * A record the SDK hands back. The SDK's declared types come from `@medusajs/types`, which is not
 * installed (it is only a dev dependency of the SDK), so its responses are untyped JSON here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: untyped JSON from the SDK
type Row = any;

const t = useTestApp();
let baseUrl: string;
let admin: Medusa;

/** A client as a storefront or admin app builds it; the JWT lives in memory (no browser storage in Node). */
function client(options: { publishableKey?: string; apiKey?: string } = {}): Medusa {
  return new Medusa({ baseUrl, ...options, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } });
}

/**
 * Sets a customer's password through the SDK with a reset token, issued as the reset route issues it
 * (it normally arrives by mail); answers the token.
 */
async function resetWithToken(email: string, password: string): Promise<string> {
  const identity = await t.app.modules.auth.findByProvider(EMAILPASS, email);
  const { secret } = await t.app.modules.authTokens.issue({
    kind: "password_reset",
    actor_type: "customer",
    provider: EMAILPASS,
    ttlMs: 60_000,
    auth_identity_id: identity!.id,
    entity_id: email,
  });
  await client().auth.updateProvider("customer", "emailpass", { email, password }, secret);
  return secret;
}

beforeAll(async () => {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (!address || typeof address === "string") throw new Error("the app is not listening on a port");
  baseUrl = `http://127.0.0.1:${address.port}`;
  await createUserAccount(
    t.app.infra.engine,
    { email: "admin@kasse.test", password: "admin-pass-1", first_name: "Ada" },
    { scryptLogN: 4 },
  );
  admin = client();
  await admin.auth.login("user", "emailpass", { email: "admin@kasse.test", password: "admin-pass-1" });
});

describe("js-sdk: admin auth", () => {
  it("logs in with emailpass, stores the token and sends it as Bearer", async () => {
    const sdk = client();
    const token = await sdk.auth.login("user", "emailpass", { email: "admin@kasse.test", password: "admin-pass-1" });
    expect(typeof token).toBe("string");
    expect(await sdk.client.getToken()).toBe(token);
    const { user } = await sdk.admin.user.me();
    expect(user).toMatchObject({ email: "admin@kasse.test", first_name: "Ada" });
    expect(JSON.stringify(user)).not.toMatch(/password|hash/i);
  });

  it("refreshes the token (POST /auth/token/refresh) and keeps working", async () => {
    const sdk = client();
    await sdk.auth.login("user", "emailpass", { email: "admin@kasse.test", password: "admin-pass-1" });
    const { token } = await sdk.auth.refresh();
    expect(typeof token).toBe("string");
    expect(await sdk.client.getToken()).toBe(token);
    expect((await sdk.admin.user.me()).user.email).toBe("admin@kasse.test");
  });

  it("a wrong password is a 4xx the SDK surfaces; admin routes without a token are 401", async () => {
    expect(
      await sdkFailure(client().auth.login("user", "emailpass", { email: "admin@kasse.test", password: "wrong" })),
    ).toMatchObject({ status: 400 });
    expect((await sdkFailure(client().admin.user.me())).status).toBe(401);
  });

  it("lists and retrieves users", async () => {
    const { users, count, limit, offset } = await admin.admin.user.list({ q: "admin@" });
    expect({ count, limit, offset }).toEqual({ count: 1, limit: 15, offset: 0 });
    expect((await admin.admin.user.retrieve(users[0]!.id)).user.email).toBe("admin@kasse.test");
  });
});

describe("js-sdk: api keys and sales channels", () => {
  it("creates, lists and revokes a secret key, which then authenticates as Basic (the SDK's apiKey transport)", async () => {
    const { api_key: key } = await admin.admin.apiKey.create({ title: "Server", type: "secret" });
    expect(key).toMatchObject({ title: "Server", type: "secret" });
    expect(typeof key.token).toBe("string");

    const server = client({ apiKey: key.token });
    expect((await server.admin.salesChannel.list()).sales_channels).toBeInstanceOf(Array);

    const { api_keys, count } = await admin.admin.apiKey.list({ type: "secret" });
    expect(count).toBe(1);
    expect(api_keys[0]!.id).toBe(key.id);
    expect(JSON.stringify(api_keys)).not.toContain(key.token);
    expect((await admin.admin.apiKey.retrieve(key.id)).api_key.title).toBe("Server");

    const revoked = await admin.admin.apiKey.revoke(key.id);
    expect(revoked.api_key.id).toBe(key.id);
    expect(revoked.api_key.revoked_at).not.toBeNull();
    expect((await sdkFailure(server.admin.salesChannel.list())).status).toBe(401);
  });

  it("manages sales channels and links a publishable key to them; the store honours the key", async () => {
    const { sales_channel: web } = await admin.admin.salesChannel.create({ name: "Web", description: "Online" });
    expect(web).toMatchObject({ name: "Web", description: "Online", is_disabled: false });
    expect((await admin.admin.salesChannel.retrieve(web.id)).sales_channel.name).toBe("Web");
    const { sales_channel: updated } = await admin.admin.salesChannel.update(web.id, { description: "Storefront" });
    expect(updated.description).toBe("Storefront");
    const list = await admin.admin.salesChannel.list({ q: "web", limit: 5 });
    expect(list).toMatchObject({ count: 1, limit: 5, offset: 0 });
    expect(list.sales_channels[0]!.id).toBe(web.id);

    const { api_key: pk } = await admin.admin.apiKey.create({ title: "Storefront", type: "publishable" });
    expect(pk.type).toBe("publishable");
    const linked = await admin.admin.apiKey.batchSalesChannels(pk.id, { add: [web.id] });
    expect(linked.api_key.id).toBe(pk.id);
    // The publishable token is not secret: listed in full.
    expect((await admin.admin.apiKey.list({ type: "publishable" })).api_keys.map((k: Row) => k.token)).toContain(
      pk.token,
    );

    // The header the SDK sends (x-publishable-api-key) is accepted on store routes; a revoked key is refused.
    expect((await client({ publishableKey: pk.token }).store.region.list()).regions).toBeInstanceOf(Array);
    await admin.admin.apiKey.revoke(pk.id);
    expect(await sdkFailure(client({ publishableKey: pk.token }).store.region.list())).toMatchObject({ status: 400 });

    const { sales_channel: retail } = await admin.admin.salesChannel.create({ name: "Retail" });
    const deleted = await admin.admin.salesChannel.delete(retail.id);
    expect(deleted).toEqual({ id: retail.id, object: "sales_channel", deleted: true });
    expect((await sdkFailure(admin.admin.salesChannel.retrieve(retail.id))).status).toBe(404);
  });

  it("bad input through the SDK is a 400 with a message", async () => {
    const bad = await sdkFailure(admin.admin.apiKey.create({ title: "x", type: "nonsense" }));
    expect(bad.status).toBe(400);
    expect(bad.message.length).toBeGreaterThan(0);
  });
});

describe("js-sdk: customers", () => {
  it("registers (Medusa form), creates the customer with the registration token, logs in and manages the account", async () => {
    const sdk = client();
    const registration = await sdk.auth.register("customer", "emailpass", {
      email: "jane@kasse.test",
      password: "jane-pass-1",
    });
    expect(typeof registration).toBe("string");
    const { customer: created } = await sdk.store.customer.create({
      email: "jane@kasse.test",
      first_name: "Jane",
      last_name: "Doe",
    });
    expect(created).toMatchObject({
      email: "jane@kasse.test",
      first_name: "Jane",
      last_name: "Doe",
      has_account: true,
    });

    await sdk.auth.login("customer", "emailpass", { email: "jane@kasse.test", password: "jane-pass-1" });
    const { customer: me } = await sdk.store.customer.retrieve();
    expect(me).toMatchObject({ id: created.id, email: "jane@kasse.test" });
    expect(JSON.stringify(me)).not.toMatch(/password|hash/i);

    expect((await sdk.store.customer.update({ phone: "+4912345", metadata: { vip: true } })).customer).toMatchObject({
      phone: "+4912345",
      metadata: { vip: true },
    });

    const address = {
      first_name: "Jane",
      address_1: "Main St 1",
      city: "Berlin",
      postal_code: "10115",
      country_code: "de",
      is_default_shipping: true,
    };
    const withAddress = (await sdk.store.customer.createAddress(address)).customer;
    expect(withAddress.addresses).toHaveLength(1);
    const addressId = withAddress.addresses[0]!.id;
    expect(withAddress.addresses[0]).toMatchObject({
      address_1: "Main St 1",
      country_code: "de",
      is_default_shipping: true,
    });

    const listed = await sdk.store.customer.listAddress();
    expect(listed).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect(listed.addresses[0]!.id).toBe(addressId);
    expect((await sdk.store.customer.retrieveAddress(addressId)).address.city).toBe("Berlin");

    const afterUpdate = (await sdk.store.customer.updateAddress(addressId, { city: "Hamburg" })).customer;
    expect(afterUpdate.addresses.find((a: Row) => a.id === addressId)?.city).toBe("Hamburg");

    const removed = await sdk.store.customer.deleteAddress(addressId);
    expect(removed).toMatchObject({ id: addressId, object: "address", deleted: true });
    expect((await sdk.store.customer.listAddress()).count).toBe(0);

    expect(await sdkFailure(sdk.store.customer.createAddress({ city: "Nowhere" }))).toMatchObject({ status: 400 });
    expect((await sdkFailure(client().store.customer.retrieve())).status).toBe(401);
  });

  it("a registration token cannot be reused for a second customer, and a duplicate email is refused", async () => {
    const sdk = client();
    await sdk.auth.register("customer", "emailpass", { email: "twice@kasse.test", password: "twice-pass-1" });
    await sdk.store.customer.create({ email: "twice@kasse.test" });
    expect((await sdkFailure(sdk.store.customer.create({ email: "twice@kasse.test" }))).status).toBeGreaterThanOrEqual(
      400,
    );
    expect(
      (
        await sdkFailure(
          client().auth.register("customer", "emailpass", { email: "twice@kasse.test", password: "other-pass" }),
        )
      ).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it("requests a password reset (201, no body) and sets the new password with the token as Bearer", async () => {
    const sdk = client();
    await sdk.auth.register("customer", "emailpass", { email: "forgot@kasse.test", password: "old-pass-1" });
    await sdk.store.customer.create({ email: "forgot@kasse.test" });
    // The SDK sends `{identifier}` and reads nothing back.
    await expect(
      client().auth.resetPassword("customer", "emailpass", { identifier: "forgot@kasse.test" }),
    ).resolves.toBeUndefined();

    const secret = await resetWithToken("forgot@kasse.test", "new-pass-1");

    expect(
      typeof (await client().auth.login("customer", "emailpass", {
        email: "forgot@kasse.test",
        password: "new-pass-1",
      })),
    ).toBe("string");
    expect(
      (
        await sdkFailure(
          client().auth.login("customer", "emailpass", { email: "forgot@kasse.test", password: "old-pass-1" }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await sdkFailure(
          client().auth.updateProvider(
            "customer",
            "emailpass",
            { email: "forgot@kasse.test", password: "evil-pass" },
            secret,
          ),
        )
      ).status,
    ).toBe(401);
  });

  it("the storefront's sign-up (register, sign in, probe, create, sign in again) works, also for an owner taking a squatted address back", async () => {
    /** Medusa's Next.js starter signs up this way (its `signup` then `completeLogin`), tolerating an existing identity. */
    async function storefrontSignUp(email: string, password: string, first_name: string): Promise<Medusa> {
      const sdk = client();
      await sdk.auth.register("customer", "emailpass", { email, password }).catch((error: unknown) => {
        const failure = error as { statusText?: string; message?: string };
        if (failure.statusText !== "Unauthorized" || failure.message !== "Identity with email already exists")
          throw error;
      });
      const token = (await sdk.auth.login("customer", "emailpass", { email, password })) as string;
      const exists = await sdk.store.customer
        .retrieve({}, { authorization: `Bearer ${token}` })
        .then(() => true)
        .catch(() => false);
      if (!exists) {
        await sdk.store.customer.create({ email, first_name }, {}, { authorization: `Bearer ${token}` });
        await sdk.auth.login("customer", "emailpass", { email, password });
      }
      return sdk;
    }

    const fresh = await storefrontSignUp("newbie@kasse.test", "newbie-pass-1", "New");
    expect((await fresh.store.customer.retrieve()).customer).toMatchObject({ email: "newbie@kasse.test" });
    // A changed email through the SDK's update is refused, saying how; the dedicated routes change it.
    const refused = await sdkFailure(fresh.store.customer.update({ email: "newbie.moved@kasse.test" }));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("POST /store/customers/me/email");
    const asked = await fresh.client.fetch<Row>("/store/customers/me/email", {
      method: "POST",
      body: { email: "newbie.moved@kasse.test" },
    });
    expect(asked.email_change.email).toBe("newbie.moved@kasse.test");

    // Someone registered the owner's address first (no customer): the owner's sign-up fails at the password...
    await client().auth.register("customer", "emailpass", { email: "taken@kasse.test", password: "squat-pass-1" });
    expect((await sdkFailure(storefrontSignUp("taken@kasse.test", "owner-pass-1", "Owner"))).status).toBe(400);
    // ... until the owner resets it through the address.
    await resetWithToken("taken@kasse.test", "owner-pass-1");
    const owner = await storefrontSignUp("taken@kasse.test", "owner-pass-1", "Owner");
    expect((await owner.store.customer.retrieve()).customer).toMatchObject({
      email: "taken@kasse.test",
      first_name: "Owner",
    });
    expect(
      (
        await sdkFailure(
          client().auth.login("customer", "emailpass", { email: "taken@kasse.test", password: "squat-pass-1" }),
        )
      ).status,
    ).toBe(400);
  });

  it("admin manages customers, their addresses and groups", async () => {
    const { customer } = await admin.admin.customer.create({ email: "walkin@kasse.test", first_name: "Walk" });
    expect(customer).toMatchObject({ email: "walkin@kasse.test", has_account: false });
    expect((await admin.admin.customer.retrieve(customer.id)).customer.id).toBe(customer.id);
    expect((await admin.admin.customer.update(customer.id, { last_name: "In" })).customer.last_name).toBe("In");
    const list = await admin.admin.customer.list({ email: "walkin@kasse.test" });
    expect(list).toMatchObject({ count: 1, offset: 0, limit: 15 });

    const address = (
      await admin.admin.customer.createAddress(customer.id, {
        address_1: "Dock 5",
        city: "Oslo",
        postal_code: "0150",
        country_code: "no",
      })
    ).customer.addresses[0]!;
    expect(address.city).toBe("Oslo");
    expect(
      (await admin.admin.customer.updateAddress(customer.id, address.id, { city: "Bergen" })).customer.addresses[0]!
        .city,
    ).toBe("Bergen");
    expect((await admin.admin.customer.listAddresses(customer.id)).addresses.map((a: Row) => a.id)).toEqual([
      address.id,
    ]);
    expect((await admin.admin.customer.retrieveAddress(customer.id, address.id)).address.city).toBe("Bergen");
    expect(await admin.admin.customer.deleteAddress(customer.id, address.id)).toMatchObject({
      id: address.id,
      deleted: true,
    });

    const { customer_group: group } = await admin.admin.customerGroup.create({ name: "VIP" });
    expect(group.name).toBe("VIP");
    expect((await admin.admin.customerGroup.update(group.id, { name: "VIPs" })).customer_group.name).toBe("VIPs");
    await admin.admin.customerGroup.batchCustomers(group.id, { add: [customer.id] });
    expect((await admin.admin.customer.list({ groups: [group.id] })).customers.map((c: Row) => c.id)).toEqual([
      customer.id,
    ]);
    expect((await admin.admin.customerGroup.list({ q: "VIP" })).customer_groups.map((g: Row) => g.id)).toEqual([
      group.id,
    ]);
    await admin.admin.customerGroup.batchCustomers(group.id, { remove: [customer.id] });
    expect((await admin.admin.customer.list({ groups: [group.id] })).count).toBe(0);
    const { customer: grouped } = await admin.admin.customer.batchCustomerGroups(customer.id, { add: [group.id] });
    expect(grouped.groups!.map((g: Row) => g.id)).toEqual([group.id]);
    await admin.admin.customer.batchCustomerGroups(customer.id, { remove: [group.id] });
    expect((await admin.admin.customer.retrieve(customer.id)).customer.groups).toEqual([]);
    expect(await admin.admin.customerGroup.delete(group.id)).toEqual({
      id: group.id,
      object: "customer_group",
      deleted: true,
    });

    expect(await admin.admin.customer.delete(customer.id)).toEqual({
      id: customer.id,
      object: "customer",
      deleted: true,
    });
    expect((await sdkFailure(admin.admin.customer.retrieve(customer.id))).status).toBe(404);
    expect((await sdkFailure(admin.admin.customer.create({ email: "not-an-email" }))).status).toBe(400);
  });
});

describe("js-sdk: catalog setup (admin)", () => {
  // Built up in order by the tests below, as an admin dashboard would.
  const ids: Record<string, string> = {};

  it("lists currencies", async () => {
    const { currencies } = await admin.admin.currency.list({ code: ["eur", "usd"] });
    expect(currencies.map((c: Row) => c.code).sort()).toEqual(["eur", "usd"]);
    expect(currencies[0]).toEqual(
      expect.objectContaining({
        symbol: expect.any(String),
        symbol_native: expect.any(String),
        name: expect.any(String),
        decimal_digits: expect.any(Number),
      }),
    );
  });

  it("creates, lists, updates and retrieves a region", async () => {
    const { region } = await admin.admin.region.create({
      name: "Europe",
      currency_code: "eur",
      countries: ["de", "fr"],
      payment_providers: ["pp_system_default"],
    });
    expect(region).toMatchObject({ name: "Europe", currency_code: "eur" });
    ids.region = region.id;
    const list = await admin.admin.region.list({ q: "Eur" });
    expect(list).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect(list.regions[0]!.id).toBe(region.id);
    expect((await admin.admin.region.update(region.id, { name: "EU" })).region.name).toBe("EU");
    const { region: retrieved } = await admin.admin.region.retrieve(region.id, {
      fields: "*countries,*payment_providers",
    });
    expect(retrieved.countries!.map((c: Row) => c.iso_2).sort()).toEqual(["de", "fr"]);
    expect(retrieved.payment_providers!.map((p: Row) => p.id)).toEqual(["pp_system_default"]);
    expect((await sdkFailure(admin.admin.region.create({ name: "Bad", currency_code: "zzz" }))).status).toBe(400);
  });

  it("creates and lists a tax region", async () => {
    const { tax_region } = await admin.admin.taxRegion.create({
      country_code: "de",
      default_tax_rate: { rate: 19, code: "DE19", name: "Germany" },
    });
    expect(tax_region.country_code).toBe("de");
    expect((await admin.admin.taxRegion.list({ country_code: "de" })).tax_regions.map((r: Row) => r.id)).toEqual([
      tax_region.id,
    ]);
    expect((await admin.admin.taxRegion.retrieve(tax_region.id)).tax_region.id).toBe(tax_region.id);
  });

  it("manages collections, categories and tags", async () => {
    const { collection } = await admin.admin.productCollection.create({ title: "Summer", handle: "summer" });
    expect(collection).toMatchObject({ title: "Summer", handle: "summer" });
    ids.collection = collection.id;
    expect((await admin.admin.productCollection.update(collection.id, { title: "Summer 26" })).collection.title).toBe(
      "Summer 26",
    );
    expect((await admin.admin.productCollection.list({ handle: "summer" })).collections.map((c: Row) => c.id)).toEqual([
      collection.id,
    ]);
    expect((await admin.admin.productCollection.retrieve(collection.id)).collection.id).toBe(collection.id);

    const { product_category: parent } = await admin.admin.productCategory.create({ name: "Clothes", is_active: true });
    const { product_category: child } = await admin.admin.productCategory.create({
      name: "Shirts",
      handle: "shirts",
      parent_category_id: parent.id,
      is_active: true,
    });
    ids.category = child.id;
    expect(child.parent_category_id).toBe(parent.id);
    expect(
      (await admin.admin.productCategory.update(child.id, { description: "Tops" })).product_category.description,
    ).toBe("Tops");
    expect(
      (await admin.admin.productCategory.list({ parent_category_id: parent.id })).product_categories.map(
        (c: Row) => c.id,
      ),
    ).toEqual([child.id]);
    expect((await admin.admin.productCategory.retrieve(child.id)).product_category.name).toBe("Shirts");

    const { product_tag: tag } = await admin.admin.productTag.create({ value: "cotton" });
    ids.tag = tag.id;
    expect((await admin.admin.productTag.update(tag.id, { value: "organic" })).product_tag.value).toBe("organic");
    expect((await admin.admin.productTag.list({ value: "organic" })).product_tags.map((x: Row) => x.id)).toEqual([
      tag.id,
    ]);
    const { product_tag: spare } = await admin.admin.productTag.create({ value: "spare" });
    expect(await admin.admin.productTag.delete(spare.id)).toMatchObject({ id: spare.id, deleted: true });
  });

  it("creates, lists, retrieves, updates and deletes products", async () => {
    const { sales_channels } = await admin.admin.salesChannel.list({ name: "Default Sales Channel" });
    ids.channel = sales_channels[0]!.id;
    const { product } = await admin.admin.product.create({
      title: "Tee",
      status: "published",
      collection_id: ids.collection,
      categories: [{ id: ids.category! }],
      tags: [{ id: ids.tag! }],
      sales_channels: [{ id: ids.channel }],
      options: [{ title: "Size", values: ["S", "M"] }],
      variants: [
        { title: "S", sku: "TEE-S", options: { Size: "S" }, prices: [{ currency_code: "eur", amount: 1500 }] },
        { title: "M", sku: "TEE-M", options: { Size: "M" }, prices: [{ currency_code: "eur", amount: 1700 }] },
      ],
    });
    expect(product).toMatchObject({ title: "Tee", handle: "tee", status: "published", collection_id: ids.collection });
    expect(product.variants!.map((v: Row) => v.sku).sort()).toEqual(["TEE-M", "TEE-S"]);
    ids.product = product.id;
    ids.variant = product.variants!.find((v: Row) => v.sku === "TEE-S")!.id;

    const list = await admin.admin.product.list({ q: "Tee", status: ["published"] });
    expect(list).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect(list.products[0]!.id).toBe(product.id);
    expect((await admin.admin.product.list({ collection_id: [ids.collection!] })).count).toBe(1);
    const { product: retrieved } = await admin.admin.product.retrieve(product.id, {
      fields: "*variants.prices,*categories,*tags",
    });
    expect(
      retrieved.variants!.find((v: Row) => v.id === ids.variant)!.prices!.map((p: Row) => [p.currency_code, p.amount]),
    ).toEqual([["eur", 1500]]);
    expect(retrieved.categories!.map((c: Row) => c.id)).toEqual([ids.category]);
    expect(retrieved.tags!.map((x: Row) => x.id)).toEqual([ids.tag]);
    expect((await admin.admin.product.update(product.id, { subtitle: "Soft" })).product.subtitle).toBe("Soft");

    const { product: doomed } = await admin.admin.product.create({
      title: "Doomed",
      options: [{ title: "One", values: ["one"] }],
    });
    expect(await admin.admin.product.delete(doomed.id)).toEqual({ id: doomed.id, object: "product", deleted: true });
    expect((await sdkFailure(admin.admin.product.retrieve(doomed.id))).status).toBe(404);
    expect((await sdkFailure(admin.admin.product.create({ title: "No options" }))).status).toBe(400);
  });

  it("creates price lists and batches their prices", async () => {
    const { customer_group: group } = await admin.admin.customerGroup.create({ name: "Wholesale" });
    const { price_list } = await admin.admin.priceList.create({
      title: "Wholesale",
      description: "Cheaper in bulk",
      type: "override",
      status: "active",
      rules: { customer_group_id: [group.id] },
      prices: [{ variant_id: ids.variant!, currency_code: "eur", amount: 1200 }],
    });
    expect(price_list).toMatchObject({ title: "Wholesale", type: "override", status: "active" });
    expect((await admin.admin.priceList.list({ status: ["active"] })).price_lists.map((p: Row) => p.id)).toEqual([
      price_list.id,
    ]);
    expect((await admin.admin.priceList.update(price_list.id, { title: "Trade" })).price_list.title).toBe("Trade");
    const batch = await admin.admin.priceList.batchPrices(price_list.id, {
      create: [{ variant_id: ids.variant!, currency_code: "usd", amount: 1300 }],
    });
    expect(batch.created.map((p: Row) => [p.currency_code, p.amount])).toEqual([["usd", 1300]]);
    expect(
      (await admin.admin.priceList.retrieve(price_list.id)).price_list.prices!.map((p: Row) => p.amount).sort(),
    ).toEqual([1200, 1300]);
    expect(await admin.admin.priceList.delete(price_list.id)).toMatchObject({ id: price_list.id, deleted: true });
  });

  it("manages stock locations, inventory levels and reservations", async () => {
    const { stock_location: location } = await admin.admin.stockLocation.create({
      name: "Berlin WH",
      address: { address_1: "Lager 1", city: "Berlin", country_code: "de" },
    });
    expect(location.name).toBe("Berlin WH");
    ids.location = location.id;
    await admin.admin.stockLocation.updateSalesChannels(location.id, { add: [ids.channel!] });
    expect((await admin.admin.stockLocation.list({ q: "Berlin" })).stock_locations.map((l: Row) => l.id)).toEqual([
      location.id,
    ]);
    expect((await admin.admin.stockLocation.update(location.id, { name: "Berlin" })).stock_location.name).toBe(
      "Berlin",
    );

    const { inventory_items } = await admin.admin.inventoryItem.list({ sku: "TEE-S" });
    expect(inventory_items).toHaveLength(1);
    const itemId = inventory_items[0]!.id;
    await admin.admin.inventoryItem.batchInventoryItemLocationLevels(itemId, {
      create: [{ location_id: location.id, stocked_quantity: 10 }],
    });
    await admin.admin.inventoryItem.updateLevel(itemId, location.id, { stocked_quantity: 12 });
    const levels = await admin.admin.inventoryItem.listLevels(itemId);
    expect(levels.inventory_levels.map((l: Row) => [l.location_id, l.stocked_quantity])).toEqual([[location.id, 12]]);

    const { inventory_item: loose } = await admin.admin.inventoryItem.create({ sku: "LOOSE-1", title: "Loose" });
    expect((await admin.admin.inventoryItem.update(loose.id, { title: "Looser" })).inventory_item.title).toBe("Looser");
    expect((await admin.admin.inventoryItem.retrieve(loose.id)).inventory_item.sku).toBe("LOOSE-1");
    expect(await admin.admin.inventoryItem.delete(loose.id)).toMatchObject({ id: loose.id, deleted: true });

    const { reservation } = await admin.admin.reservation.create({
      inventory_item_id: itemId,
      location_id: location.id,
      quantity: 2,
    });
    expect(reservation).toMatchObject({ inventory_item_id: itemId, location_id: location.id, quantity: 2 });
    expect(
      (await admin.admin.reservation.list({ inventory_item_id: [itemId] })).reservations.map((r: Row) => r.id),
    ).toEqual([reservation.id]);
    expect((await admin.admin.reservation.update(reservation.id, { quantity: 3 })).reservation.quantity).toBe(3);
    expect((await admin.admin.inventoryItem.listLevels(itemId)).inventory_levels[0]!.reserved_quantity).toBe(3);
    expect(await admin.admin.reservation.delete(reservation.id)).toMatchObject({ id: reservation.id, deleted: true });
    expect(
      (
        await sdkFailure(
          admin.admin.reservation.create({ inventory_item_id: itemId, location_id: location.id, quantity: 100 }),
        )
      ).status,
    ).toBe(400);
  });

  it("manages shipping profiles and options", async () => {
    const { shipping_profile: profile } = await admin.admin.shippingProfile.create({
      name: "Parcels",
      type: "default",
    });
    expect(profile).toMatchObject({ name: "Parcels", type: "default" });
    expect(
      (await admin.admin.shippingProfile.list({ q: "Parcels" })).shipping_profiles.map((p: Row) => p.id),
    ).toContain(profile.id);
    expect((await admin.admin.shippingProfile.retrieve(profile.id)).shipping_profile.id).toBe(profile.id);

    const { shipping_option: option } = await admin.admin.shippingOption.create({
      name: "Standard",
      price_type: "flat",
      shipping_profile_id: profile.id,
      provider_id: "manual_manual",
      region_id: ids.region,
      stock_location_id: ids.location,
      type: { label: "Standard", description: "3-5 days", code: "standard" },
      prices: [{ currency_code: "eur", amount: 500 }],
      rules: [{ attribute: "enabled_in_store", operator: "eq", value: "true" }],
    });
    expect(option).toMatchObject({ name: "Standard", shipping_profile_id: profile.id });
    ids.shippingOption = option.id;
    expect((await admin.admin.shippingOption.list({ q: "Standard" })).shipping_options.map((o: Row) => o.id)).toEqual([
      option.id,
    ]);
    expect((await admin.admin.shippingOption.update(option.id, { name: "Standard+" })).shipping_option.name).toBe(
      "Standard+",
    );
    expect((await admin.admin.shippingOption.retrieve(option.id)).shipping_option.name).toBe("Standard+");
  });

  it("manages campaigns and promotions", async () => {
    const { campaign } = await admin.admin.campaign.create({
      name: "Launch",
      campaign_identifier: "launch-26",
      budget: { type: "spend", limit: 100_000, currency_code: "eur" },
    });
    expect(campaign).toMatchObject({ name: "Launch", campaign_identifier: "launch-26" });
    expect((await admin.admin.campaign.list({ q: "Launch" })).campaigns.map((c: Row) => c.id)).toEqual([campaign.id]);
    expect((await admin.admin.campaign.update(campaign.id, { description: "Go" })).campaign.description).toBe("Go");

    const { promotion } = await admin.admin.promotion.create({
      code: "TEN",
      type: "standard",
      status: "active",
      is_automatic: false,
      application_method: { type: "percentage", target_type: "order", allocation: "across", value: 10 },
      rules: [{ attribute: "currency_code", operator: "eq", values: ["eur"] }],
    });
    expect(promotion).toMatchObject({ code: "TEN", type: "standard", is_automatic: false });
    expect(promotion.application_method).toMatchObject({ type: "percentage", target_type: "order", value: 10 });
    await admin.admin.campaign.batchPromotions(campaign.id, { add: [promotion.id] });
    expect((await admin.admin.promotion.retrieve(promotion.id)).promotion.campaign_id).toBe(campaign.id);
    expect((await admin.admin.promotion.list({ campaign_id: campaign.id })).promotions.map((p: Row) => p.id)).toEqual([
      promotion.id,
    ]);
    expect(
      (await admin.admin.promotion.update(promotion.id, { application_method: { value: 15 } })).promotion
        .application_method!.value,
    ).toBe(15);
    expect(await admin.admin.promotion.delete(promotion.id)).toEqual({
      id: promotion.id,
      object: "promotion",
      deleted: true,
    });
    expect(await admin.admin.campaign.delete(campaign.id)).toMatchObject({ id: campaign.id, deleted: true });
  });

  it("the store reads the catalog: products with calculated prices, regions, collections, categories, payment providers", async () => {
    const { api_key: pk } = await admin.admin.apiKey.create({ title: "Catalog storefront", type: "publishable" });
    await admin.admin.apiKey.batchSalesChannels(pk.id, { add: [ids.channel!] });
    const store = client({ publishableKey: pk.token });

    const { products, count } = await store.store.product.list({
      region_id: ids.region,
      fields: "*variants.calculated_price",
    });
    expect(count).toBe(1);
    const tee = products[0]!;
    expect(tee.id).toBe(ids.product);
    expect(tee.variants!.find((v: Row) => v.id === ids.variant)!.calculated_price).toMatchObject({
      calculated_amount: 1500,
      currency_code: "eur",
      is_calculated_price_tax_inclusive: false,
    });
    expect((await store.store.product.retrieve("tee", { region_id: ids.region })).product.id).toBe(ids.product);
    expect((await store.store.product.retrieve(ids.product!)).product.title).toBe("Tee");

    const { regions } = await store.store.region.list();
    expect(regions.map((r: Row) => r.id)).toContain(ids.region);
    expect((await store.store.region.retrieve(ids.region!)).region.currency_code).toBe("eur");
    expect((await store.store.collection.list()).collections.map((c: Row) => c.id)).toContain(ids.collection);
    expect((await store.store.category.list({ handle: "shirts" })).product_categories.map((c: Row) => c.id)).toEqual([
      ids.category,
    ]);
    const { payment_providers } = await store.store.payment.listPaymentProviders({ region_id: ids.region! });
    expect(payment_providers).toEqual([expect.objectContaining({ id: "pp_system_default", is_enabled: true })]);
    expect((await sdkFailure(store.store.product.retrieve("no-such-product"))).status).toBe(404);

    // Filters as the SDK encodes them with qs (arrays as `collection_id[0]=...`).
    expect(
      (await store.store.product.list({ collection_id: [ids.collection!], category_id: [ids.category!] })).products.map(
        (p: Row) => p.id,
      ),
    ).toEqual([ids.product]);
    expect((await store.store.product.list({ collection_id: ["pcol_none"] })).count).toBe(0);
  });

  it("edits variants and options through the SDK", async () => {
    const { product: hoodie } = await admin.admin.product.create({
      title: "Hoodie",
      options: [{ title: "Size", values: ["S", "L"] }],
      variants: [
        { title: "S", sku: "HOOD-S", options: { Size: "S" }, prices: [{ currency_code: "eur", amount: 4000 }] },
      ],
    });
    const { product } = await admin.admin.product.createVariant(hoodie.id, {
      title: "L",
      sku: "HOOD-L",
      options: { Size: "L" },
      prices: [{ currency_code: "eur", amount: 4500 }],
    });
    const large = product.variants!.find((v: Row) => v.sku === "HOOD-L")!;
    expect(large.title).toBe("L");
    expect(
      (await admin.admin.product.updateVariant(hoodie.id, large.id, { title: "Large" })).product.variants!.find(
        (v: Row) => v.id === large.id,
      )!.title,
    ).toBe("Large");
    expect((await admin.admin.product.retrieveVariant(hoodie.id, large.id)).variant.sku).toBe("HOOD-L");
    expect((await admin.admin.product.listVariants(hoodie.id)).count).toBe(2);
    expect(await admin.admin.product.deleteVariant(hoodie.id, large.id)).toMatchObject({ id: large.id, deleted: true });
    expect((await admin.admin.product.listOptions(hoodie.id)).product_options.map((o: Row) => o.title)).toEqual([
      "Size",
    ]);
    expect(await admin.admin.product.delete(hoodie.id)).toMatchObject({ id: hoodie.id, deleted: true });
  });

  it("a storefront checks out up to an authorized payment", async () => {
    const store = client();
    const { cart } = await store.store.cart.create({ region_id: ids.region, email: "shopper@kasse.test" });
    expect(cart).toMatchObject({
      region_id: ids.region,
      currency_code: "eur",
      email: "shopper@kasse.test",
      sales_channel_id: ids.channel,
    });
    const { cart: withItem } = await store.store.cart.createLineItem(cart.id, {
      variant_id: ids.variant!,
      quantity: 2,
    });
    expect(withItem.items!.map((i: Row) => [i.variant_id, i.quantity, i.unit_price])).toEqual([[ids.variant, 2, 1500]]);
    const lineId = withItem.items![0]!.id;
    expect((await store.store.cart.updateLineItem(cart.id, lineId, { quantity: 1 })).cart.items![0]!.quantity).toBe(1);

    const address = {
      first_name: "Sam",
      last_name: "Shopper",
      address_1: "Main St 1",
      city: "Berlin",
      postal_code: "10115",
      country_code: "de",
    };
    const { cart: addressed } = await store.store.cart.update(cart.id, {
      shipping_address: address,
      billing_address: address,
    });
    expect(addressed.shipping_address).toMatchObject({ city: "Berlin", country_code: "de" });
    expect(addressed.billing_address).toMatchObject({ city: "Berlin" });

    const { shipping_options } = await store.store.fulfillment.listCartOptions({ cart_id: cart.id });
    expect(shipping_options.map((o: Row) => [o.id, o.amount])).toEqual([[ids.shippingOption, 500]]);
    const { cart: shipped } = await store.store.cart.addShippingMethod(cart.id, { option_id: ids.shippingOption! });
    expect(shipped.shipping_methods!.map((m: Row) => [m.shipping_option_id, m.amount])).toEqual([
      [ids.shippingOption, 500],
    ]);
    expect(shipped.total).toBeGreaterThanOrEqual(2000);

    const { payment_collection } = await store.store.payment.initiatePaymentSession(shipped, {
      provider_id: "pp_system_default",
    });
    expect(payment_collection).toMatchObject({ amount: shipped.total, currency_code: "eur" });
    expect(payment_collection.payment_sessions!.map((session: Row) => session.provider_id)).toEqual([
      "pp_system_default",
    ]);
    const { cart: paying } = await store.store.cart.retrieve(cart.id);
    expect(paying.payment_collection?.id).toBe(payment_collection.id);

    expect(await store.store.cart.deleteLineItem(cart.id, lineId)).toMatchObject({ id: lineId, deleted: true });
    expect((await store.store.cart.retrieve(cart.id)).cart.items).toEqual([]);
  });

  it("answers the calls of Medusa's Next.js starter: its fields strings, promotions, cart transfer", async () => {
    const { promotion } = await admin.admin.promotion.create({
      code: "SAVE5",
      type: "standard",
      status: "active",
      application_method: {
        type: "fixed",
        target_type: "order",
        allocation: "across",
        value: 500,
        currency_code: "eur",
      },
    });
    const shopper = client();
    await shopper.auth.register("customer", "emailpass", { email: "starter@kasse.test", password: "starter-pass-1" });
    const { customer } = await shopper.store.customer.create({ email: "starter@kasse.test" });
    await shopper.auth.login("customer", "emailpass", { email: "starter@kasse.test", password: "starter-pass-1" });
    expect((await shopper.store.customer.retrieve({ fields: "*addresses" })).customer).toMatchObject({
      id: customer.id,
      addresses: [],
    });

    const { products } = await shopper.store.product.list({
      region_id: ids.region,
      limit: 12,
      offset: 0,
      fields: "*variants.calculated_price,+variants.inventory_quantity,*variants.images,+metadata,+tags",
    });
    const variant = products[0]!.variants!.find((v: Row) => v.id === ids.variant)!;
    expect(variant.inventory_quantity).toBe(12);
    expect(variant.calculated_price!.calculated_amount).toBe(1500);
    expect(products[0]!.tags!.map((x: Row) => x.id)).toEqual([ids.tag]);

    // A guest cart, then transferred to the signed-in customer.
    const guest = client();
    const { cart } = await guest.store.cart.create({ region_id: ids.region });
    await guest.store.cart.createLineItem(cart.id, { variant_id: ids.variant!, quantity: 1 });
    const { cart: transferred } = await shopper.store.cart.transferCart(cart.id);
    expect(transferred).toMatchObject({ id: cart.id, customer_id: customer.id, email: "starter@kasse.test" });

    const { cart: discounted } = await shopper.store.cart.addPromotions(cart.id, { promo_codes: ["SAVE5"] });
    expect(discounted.discount_total).toBe(500);
    expect(discounted.total).toBe(1000);
    const fields =
      "*items, *region, *items.product, *items.variant, *items.thumbnail, *items.metadata, +items.total, *promotions, +shipping_methods.name";
    const { cart: retrieved } = await shopper.store.cart.retrieve(cart.id, { fields });
    expect(retrieved.items![0]).toMatchObject({
      variant_id: ids.variant,
      variant: { id: ids.variant },
      product: { id: ids.product },
    });
    expect(retrieved.region).toMatchObject({ id: ids.region, currency_code: "eur" });
    expect(retrieved.promotions!.map((p: Row) => p.code)).toEqual(["SAVE5"]);
    const { cart: undiscounted } = await shopper.store.cart.removePromotions(cart.id, { promo_codes: ["SAVE5"] });
    expect(undiscounted.discount_total).toBe(0);
    expect((await sdkFailure(guest.store.cart.retrieve(cart.id))).status).toBe(404);
    await admin.admin.promotion.delete(promotion.id);
  });

  it("links products to channels, edits promotion rules, reads the category tree and cleans up", async () => {
    const { sales_channel: pop } = await admin.admin.salesChannel.create({ name: "Pop-up" });
    await admin.admin.salesChannel.batchProducts(pop.id, { add: [ids.product!] });
    expect((await admin.admin.product.list({ sales_channel_id: [pop.id] })).products.map((p: Row) => p.id)).toEqual([
      ids.product,
    ]);
    await admin.admin.salesChannel.batchProducts(pop.id, { remove: [ids.product!] });
    expect((await admin.admin.product.list({ sales_channel_id: [pop.id] })).count).toBe(0);

    const { promotion } = await admin.admin.promotion.create({
      code: "RULED",
      type: "standard",
      application_method: { type: "percentage", target_type: "order", value: 5 },
    });
    await admin.admin.promotion.addRules(promotion.id, "rules", {
      rules: [{ attribute: "currency_code", operator: "in", values: ["eur", "usd"] }],
    });
    const { promotion: ruled } = await admin.admin.promotion.retrieve(promotion.id, { fields: "*rules" });
    expect(ruled.rules!.map((r: Row) => [r.attribute, r.operator])).toEqual([["currency_code", "in"]]);
    await admin.admin.promotion.removeRules(promotion.id, "rules", { rule_ids: [ruled.rules![0]!.id] });
    expect((await admin.admin.promotion.retrieve(promotion.id, { fields: "*rules" })).promotion.rules).toEqual([]);
    await admin.admin.promotion.delete(promotion.id);

    const store = client();
    const { product_categories } = await store.store.category.list({
      parent_category_id: "null",
      include_descendants_tree: true,
    });
    const clothes = product_categories.find((c: Row) => c.name === "Clothes")!;
    expect(clothes.category_children.map((c: Row) => c.id)).toEqual([ids.category]);
    expect((await store.store.category.retrieve(ids.category!)).product_category.handle).toBe("shirts");
    expect((await store.store.collection.retrieve(ids.collection!)).collection.title).toBe("Summer 26");

    const { api_key: key } = await admin.admin.apiKey.create({ title: "Temp", type: "secret" });
    expect((await admin.admin.apiKey.update(key.id, { title: "Temporary" })).api_key.title).toBe("Temporary");
    // As in Medusa, only a revoked key can be deleted (not_allowed: 403 per the contract's error table).
    expect((await sdkFailure(admin.admin.apiKey.delete(key.id))).status).toBe(403);
    await admin.admin.apiKey.revoke(key.id);
    expect(await admin.admin.apiKey.delete(key.id)).toMatchObject({ id: key.id, deleted: true });
    const { user } = await admin.admin.user.me();
    expect((await admin.admin.user.update(user.id, { last_name: "Lovelace" })).user.last_name).toBe("Lovelace");

    const { stock_location: spare } = await admin.admin.stockLocation.create({ name: "Spare" });
    const { inventory_item: item } = await admin.admin.inventoryItem.create({ sku: "SPARE-1" });
    await admin.admin.inventoryItem.batchInventoryItemLocationLevels(item.id, {
      create: [{ location_id: spare.id, stocked_quantity: 0 }],
    });
    await admin.admin.inventoryItem.deleteLevel(item.id, spare.id);
    expect((await admin.admin.inventoryItem.listLevels(item.id)).inventory_levels).toEqual([]);
    expect(await admin.admin.stockLocation.delete(spare.id)).toMatchObject({ id: spare.id, deleted: true });
    const { shipping_profile: profile } = await admin.admin.shippingProfile.create({ name: "Bulky", type: "bulky" });
    expect(await admin.admin.shippingProfile.delete(profile.id)).toMatchObject({ id: profile.id, deleted: true });
    const { region } = await admin.admin.region.create({ name: "Temp region", currency_code: "usd" });
    expect(await admin.admin.region.delete(region.id)).toMatchObject({ id: region.id, deleted: true });
    const { tax_region } = await admin.admin.taxRegion.create({ country_code: "fr" });
    expect(await admin.admin.taxRegion.delete(tax_region.id)).toMatchObject({ id: tax_region.id, deleted: true });
    const { collection } = await admin.admin.productCollection.create({ title: "Temp" });
    expect(await admin.admin.productCollection.delete(collection.id)).toMatchObject({
      id: collection.id,
      deleted: true,
    });
    const { product_category: category } = await admin.admin.productCategory.create({ name: "Temp" });
    expect(await admin.admin.productCategory.delete(category.id)).toMatchObject({ id: category.id, deleted: true });
  });

  it("lists the payment providers an admin can give a region", async () => {
    const { payment_providers, count } = await admin.admin.payment.listPaymentProviders();
    expect(payment_providers.map((p: Row) => p.id)).toEqual(["pp_system_default", "pp_test"]);
    expect(count).toBe(2);
  });

  it("lists notifications with the SDK", async () => {
    const { notifications, count } = await admin.admin.notification.list({ limit: 5 });
    expect(notifications).toBeInstanceOf(Array);
    expect(typeof count).toBe("number");
  });

  it("lists and retrieves workflow executions with the SDK (Medusa's /admin/workflows-executions path)", async () => {
    const { workflow_executions, count } = await admin.admin.workflowExecution.list({ limit: 100 });
    expect(count).toBeGreaterThan(0);
    const { workflow_execution } = await admin.admin.workflowExecution.retrieve(workflow_executions[0].id);
    expect(workflow_execution).toMatchObject({
      id: workflow_executions[0].id,
      workflow_id: workflow_executions[0].workflow_id,
    });
    expect(workflow_execution.steps).toBeInstanceOf(Array);
  });

  it("manages product types and price preferences", async () => {
    const { product_type: type } = await admin.admin.productType.create({ value: "Apparel" });
    expect((await admin.admin.productType.update(type.id, { value: "Clothing" })).product_type.value).toBe("Clothing");
    expect((await admin.admin.productType.list({ value: "Clothing" })).product_types.map((x: Row) => x.id)).toEqual([
      type.id,
    ]);
    expect(await admin.admin.productType.delete(type.id)).toMatchObject({ id: type.id, deleted: true });

    const { price_preference: preference } = await admin.admin.pricePreference.create({
      attribute: "currency_code",
      value: "usd",
      is_tax_inclusive: true,
    });
    expect(preference).toMatchObject({ attribute: "currency_code", value: "usd", is_tax_inclusive: true });
    expect(
      (await admin.admin.pricePreference.update(preference.id, { is_tax_inclusive: false })).price_preference
        .is_tax_inclusive,
    ).toBe(false);
    expect(
      (await admin.admin.pricePreference.list({ attribute: "currency_code" })).price_preferences.map((x: Row) => x.id),
    ).toContain(preference.id);
    expect(await admin.admin.pricePreference.delete(preference.id)).toMatchObject({ id: preference.id, deleted: true });
  });
});
