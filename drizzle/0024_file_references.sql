-- Pictures' URLs were stored absolute, with the store's address at the time (PUBLIC_URL, else
-- http://localhost:{PORT}), and broke when it changed. Records now keep a reference to a file Kasse
-- serves itself, answered at the current address (docs/files.md). This turns the URLs written
-- before into references: an upload of this store (`…/static/uploads/{key}` whatever the host,
-- for a key its `file` table records: keys carry 64 random bits, so another site's URL is never
-- taken for one) becomes `/static/uploads/{key}` ...
UPDATE "product" r
SET "thumbnail" = '/static/uploads/' || f."id"
FROM "file" f
WHERE r."thumbnail" ~ '^https?://[^/]+(/[^?#]*)?/static/uploads/[^/?#]+$'
  AND f."id" = substring(r."thumbnail" from '/static/uploads/([^/?#]+)$');
--> statement-breakpoint
UPDATE "product_image" r
SET "url" = '/static/uploads/' || f."id"
FROM "file" f
WHERE r."url" ~ '^https?://[^/]+(/[^?#]*)?/static/uploads/[^/?#]+$'
  AND f."id" = substring(r."url" from '/static/uploads/([^/?#]+)$');
--> statement-breakpoint
UPDATE "cart_line_item" r
SET "thumbnail" = '/static/uploads/' || f."id"
FROM "file" f
WHERE r."thumbnail" ~ '^https?://[^/]+(/[^?#]*)?/static/uploads/[^/?#]+$'
  AND f."id" = substring(r."thumbnail" from '/static/uploads/([^/?#]+)$');
--> statement-breakpoint
UPDATE "order_line_item" r
SET "thumbnail" = '/static/uploads/' || f."id"
FROM "file" f
WHERE r."thumbnail" ~ '^https?://[^/]+(/[^?#]*)?/static/uploads/[^/?#]+$'
  AND f."id" = substring(r."thumbnail" from '/static/uploads/([^/?#]+)$');
--> statement-breakpoint
-- ... and a demo picture Kasse ships (stores seeded before the seed uploaded its pictures point at
-- `…/static/demo/{handle}.png`; every Kasse ships the same pictures) becomes `/static/demo/{handle}.png`.
UPDATE "product"
SET "thumbnail" = substring("thumbnail" from '(/static/demo/[a-z-]+\.png)$')
WHERE "thumbnail" ~ '^https?://[^/]+(/[^?#]*)?/static/demo/(cable-knit-sweater|canvas-tote|cardigan|chinos|corduroy-pants|crew-t-shirt|flannel-shirt|hoodie|leather-belt|linen-shirt|linen-trousers|long-sleeve-tee|merino-sweater|oxford-shirt|selvedge-jeans|shorts|sunglasses|sweatshirt|wool-beanie|wool-scarf)\.png$';
--> statement-breakpoint
UPDATE "product_image"
SET "url" = substring("url" from '(/static/demo/[a-z-]+\.png)$')
WHERE "url" ~ '^https?://[^/]+(/[^?#]*)?/static/demo/(cable-knit-sweater|canvas-tote|cardigan|chinos|corduroy-pants|crew-t-shirt|flannel-shirt|hoodie|leather-belt|linen-shirt|linen-trousers|long-sleeve-tee|merino-sweater|oxford-shirt|selvedge-jeans|shorts|sunglasses|sweatshirt|wool-beanie|wool-scarf)\.png$';
--> statement-breakpoint
UPDATE "cart_line_item"
SET "thumbnail" = substring("thumbnail" from '(/static/demo/[a-z-]+\.png)$')
WHERE "thumbnail" ~ '^https?://[^/]+(/[^?#]*)?/static/demo/(cable-knit-sweater|canvas-tote|cardigan|chinos|corduroy-pants|crew-t-shirt|flannel-shirt|hoodie|leather-belt|linen-shirt|linen-trousers|long-sleeve-tee|merino-sweater|oxford-shirt|selvedge-jeans|shorts|sunglasses|sweatshirt|wool-beanie|wool-scarf)\.png$';
--> statement-breakpoint
UPDATE "order_line_item"
SET "thumbnail" = substring("thumbnail" from '(/static/demo/[a-z-]+\.png)$')
WHERE "thumbnail" ~ '^https?://[^/]+(/[^?#]*)?/static/demo/(cable-knit-sweater|canvas-tote|cardigan|chinos|corduroy-pants|crew-t-shirt|flannel-shirt|hoodie|leather-belt|linen-shirt|linen-trousers|long-sleeve-tee|merino-sweater|oxford-shirt|selvedge-jeans|shorts|sunglasses|sweatshirt|wool-beanie|wool-scarf)\.png$';
