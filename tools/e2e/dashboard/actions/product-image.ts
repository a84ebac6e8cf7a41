import assert from "node:assert/strict";
import { click, open, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

// A 1×1 PNG: the smallest image the dashboard's media form takes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Uploads an image in the product's media form (`POST /admin/uploads`, then the product's images):
 * the product gains the image, and Kasse serves the uploaded file's bytes at its URL.
 */
export const uploadProductImage: DashboardAction = {
  name: "product-upload-image",
  async run({ page, kasse, api, seeded, shot }) {
    const before = (
      await api<{ product: { images: Array<{ url: string }> } }>("GET", `/admin/products/${seeded.productId}`)
    ).product.images;
    await open(page, kasse.origin, `/products/${seeded.productId}/media?view=edit`);
    await page.locator('input[type="file"]').setInputFiles({ name: "swatch.png", mimeType: "image/png", buffer: PNG });
    await click(page, "Save");
    await toast(page);
    const added = await eventually(async () => {
      const { images } = (
        await api<{ product: { images: Array<{ url: string }> } }>("GET", `/admin/products/${seeded.productId}`)
      ).product;
      assert.equal(images.length, before.length + 1);
      return images.find((image) => !before.some((b) => b.url === image.url))!;
    });
    const served = await fetch(new URL(added.url, kasse.origin));
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
    await open(page, kasse.origin, `/products/${seeded.productId}`);
    await shot("image");
  },
};
