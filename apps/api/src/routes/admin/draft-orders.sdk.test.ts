import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { sdkAdmin, sdkFailure } from "../../testing/sdk";
import { useTestApp } from "../../testing";
import { sdkStorefront } from "../../testing/storefront";
import { TEST_ADDRESS } from "../../testing/checkout";

// A phone order entered through Medusa's SDK in Medusa's dialect (money in major units), as a
// draft-order screen calls it: created, edited, converted; checked through the same SDK.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's types come from @medusajs/types, not installed: untyped JSON
type Row = any;

const t = useTestApp();
let admin: Medusa;
let shop: Awaited<ReturnType<typeof sdkStorefront>>;
let itemId: string;

beforeAll(async () => {
  shop = await sdkStorefront(t);
  const variantId = shop.variantIds[0]!;
  itemId = (await t.app.modules.inventory.listVariantInventoryItems([variantId])).get(variantId)![0]!.inventory_item_id;
  admin = await sdkAdmin(t, `${shop.baseUrl}/medusa`);
});

const level = async () =>
  (await admin.admin.inventoryItem.listLevels(itemId)).inventory_levels.find(
    (l: Row) => l.location_id === shop.locationId,
  );

describe("@medusajs/js-sdk: draft orders", () => {
  it("creates a draft, edits it, converts it, and the order is reserved and awaits its payment", async () => {
    const { draft_order: draft } = await admin.admin.draftOrder.create({
      email: "phone@example.com",
      region_id: shop.regionId,
      sales_channel_id: shop.channelId,
      shipping_address: TEST_ADDRESS,
      items: [{ variant_id: shop.variantIds[0], quantity: 1 }],
      shipping_methods: [{ shipping_option_id: shop.optionId, name: "Courier", amount: 7 }],
    });
    expect(draft).toMatchObject({ status: "draft", is_draft_order: true, item_subtotal: 45 });
    expect(draft.shipping_methods[0]).toMatchObject({ name: "Courier", amount: 7 });
    const { draft_orders } = await admin.admin.draftOrder.list({ fields: "id,status" });
    expect(draft_orders.map((d: Row) => d.id)).toContain(draft.id);
    expect((await admin.admin.order.list({ fields: "id" })).orders.map((o: Row) => o.id)).not.toContain(draft.id);

    await admin.admin.draftOrder.beginEdit(draft.id);
    const line = draft.items[0];
    await admin.admin.draftOrder.updateItem(draft.id, line.id, { quantity: 2 });
    const { draft_order_preview: preview } = await admin.admin.draftOrder.addItems(draft.id, {
      items: [{ title: "Gift wrap", quantity: 1, unit_price: 2.5 }],
    });
    expect(preview.items.map((i: Row) => [i.title, i.quantity, i.unit_price])).toEqual([
      [line.title, 2, 45],
      ["Gift wrap", 1, 2.5],
    ]);
    await admin.admin.draftOrder.requestEdit(draft.id);
    const confirmed = (await admin.admin.draftOrder.confirmEdit(draft.id)).draft_order_preview;
    expect(confirmed).toMatchObject({ version: 2, item_subtotal: 92.5 });
    expect(await level()).toMatchObject({ reserved_quantity: 0 });

    const { order } = await admin.admin.draftOrder.convertToOrder(draft.id);
    expect(order).toMatchObject({ id: draft.id, status: "pending", version: 2, payment_status: "awaiting" });
    expect(order.payment_collections[0]).toMatchObject({ amount: order.total, status: "not_paid" });
    expect(await level()).toMatchObject({ reserved_quantity: 2 });
    expect((await sdkFailure(admin.admin.draftOrder.convertToOrder(draft.id))).status).toBe(400);
    expect((await sdkFailure(admin.admin.draftOrder.retrieve(draft.id))).status).toBe(404);
  });

  it("adds a promotion code to a draft's edit, takes it off, and the converted order keeps and counts it", async () => {
    const { promotion } = await admin.admin.promotion.create({
      code: "PHONE10",
      type: "standard",
      status: "active",
      campaign: { name: "Phone sale", campaign_identifier: "phone-sale", budget: { type: "usage", limit: 10 } },
      application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10 },
    });
    const { draft_order: draft } = await admin.admin.draftOrder.create({
      email: "phone@example.com",
      region_id: shop.regionId,
      sales_channel_id: shop.channelId,
      shipping_address: TEST_ADDRESS,
      items: [{ variant_id: shop.variantIds[0], quantity: 2 }],
    });
    await admin.admin.draftOrder.beginEdit(draft.id);
    const added = (await admin.admin.draftOrder.addPromotions(draft.id, { promo_codes: ["PHONE10"] }))
      .draft_order_preview;
    expect(added).toMatchObject({ item_subtotal: 90, item_discount_total: 9, discount_total: 9 });
    expect(added.order_change.actions).toEqual([
      expect.objectContaining({ action: "PROMOTION_ADD", reference_id: promotion.id, details: { code: "PHONE10" } }),
    ]);
    const removed = (await admin.admin.draftOrder.removePromotions(draft.id, { promo_codes: ["PHONE10"] }))
      .draft_order_preview;
    expect(removed).toMatchObject({ discount_total: 0 });
    expect(
      (await sdkFailure(admin.admin.draftOrder.removePromotions(draft.id, { promo_codes: ["PHONE10"] }))).status,
    ).toBe(400);
    expect((await sdkFailure(admin.admin.draftOrder.addPromotions(draft.id, { promo_codes: ["NOPE"] }))).status).toBe(
      400,
    );
    await admin.admin.draftOrder.addPromotions(draft.id, { promo_codes: ["phone10"] });
    await admin.admin.draftOrder.requestEdit(draft.id);
    expect((await admin.admin.draftOrder.confirmEdit(draft.id)).draft_order_preview).toMatchObject({
      version: 2,
      discount_total: 9,
    });
    const { order } = await admin.admin.draftOrder.convertToOrder(draft.id);
    expect(order).toMatchObject({ status: "pending", discount_total: 9 });
    const { order: read } = await admin.admin.order.retrieve(draft.id, { fields: "id,*promotions" });
    expect(read.promotions).toEqual([expect.objectContaining({ code: "PHONE10", amount: 9 })]);
    const { campaign } = await admin.admin.campaign.retrieve(promotion.campaign_id, { fields: "*budget" });
    expect(campaign.budget).toMatchObject({ used: 1, limit: 10 });
  });

  it("cancels an edit and deletes a draft", async () => {
    const { draft_order: draft } = await admin.admin.draftOrder.create({
      customer_id: undefined,
      email: "phone@example.com",
      region_id: shop.regionId,
      items: [{ title: "Consultation", quantity: 1, unit_price: 30 }],
    });
    await admin.admin.draftOrder.beginEdit(draft.id);
    expect(await admin.admin.draftOrder.cancelEdit(draft.id)).toEqual({
      id: draft.id,
      object: "draft-order-edit",
      deleted: true,
    });
    expect(await admin.admin.draftOrder.delete(draft.id)).toEqual({
      id: draft.id,
      object: "draft-order",
      deleted: true,
    });
    expect((await sdkFailure(admin.admin.draftOrder.create({ region_id: shop.regionId }))).status).toBe(400);
  });
});
