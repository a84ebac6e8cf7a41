-- Shipping options created before shipping option types (0014) have no type record; Medusa's
-- dashboard edits an option through its type's id. Each gets the record an option created now gets:
-- a `type` object ({label, code, description}) names the live type of its code, created from the
-- first such option when there is none ...
INSERT INTO "shipping_option_type" ("id", "label", "code", "description")
SELECT DISTINCT ON (o."type"->>'code')
  'sotype_' || upper(substr(md5(random()::text || (o."type"->>'code')), 1, 26)),
  COALESCE(o."type"->>'label', o."type"->>'code'),
  o."type"->>'code',
  o."type"->>'description'
FROM "shipping_option" o
WHERE o."shipping_option_type_id" IS NULL
  AND o."type"->>'code' IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM "shipping_option_type" t WHERE t."code" = o."type"->>'code' AND t."deleted_at" IS NULL
  )
ORDER BY o."type"->>'code', o."created_at";
--> statement-breakpoint
-- ... and one without a type gets the default type (code `default`, as `DEFAULT_OPTION_TYPE` in
-- packages/modules/src/fulfillment/option-types.ts), created when there is none.
INSERT INTO "shipping_option_type" ("id", "label", "code", "description")
SELECT
  'sotype_' || upper(substr(md5(random()::text || 'default'), 1, 26)),
  'Default',
  'default',
  'Given to shipping options created without a type'
WHERE EXISTS (
    SELECT 1 FROM "shipping_option" o
    WHERE o."shipping_option_type_id" IS NULL AND o."type"->>'code' IS NULL
  )
  AND NOT EXISTS (SELECT 1 FROM "shipping_option_type" t WHERE t."code" = 'default' AND t."deleted_at" IS NULL);
--> statement-breakpoint
UPDATE "shipping_option" o
SET
  "shipping_option_type_id" = t."id",
  "type" = jsonb_build_object('id', t."id", 'label', t."label", 'code', t."code", 'description', t."description")
FROM "shipping_option_type" t
WHERE o."shipping_option_type_id" IS NULL
  AND t."deleted_at" IS NULL
  AND t."code" = COALESCE(o."type"->>'code', 'default');
