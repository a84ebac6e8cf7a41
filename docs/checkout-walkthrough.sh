#!/usr/bin/env bash
# A checkout from a new product to an order, with curl and jq, against a running Kasse with the
# demo store (the first `npm start`, or `kasse seed`). Amounts are minor units (1500 = $15.00).
#   ADMIN_EMAIL=admin@kasse.local ADMIN_PASSWORD=… bash docs/checkout-walkthrough.sh
set -euo pipefail
KASSE_URL=${KASSE_URL:-http://localhost:9000}
JSON='content-type: application/json'
call() { curl -sS --fail-with-body "$@"; } # stops the script on any 4xx/5xx, printing the error

# 1. Sign in as the admin; the token goes in `authorization: Bearer …`.
TOKEN=$(call -X POST "$KASSE_URL/auth/user/emailpass" -H "$JSON" \
  -d "{\"email\": \"$ADMIN_EMAIL\", \"password\": \"$ADMIN_PASSWORD\"}" | jq -r .token)
ADMIN="authorization: Bearer $TOKEN"

# 2. What the demo store has: its publishable key, the US region, the sales channel, the warehouse.
KEY=$(call "$KASSE_URL/admin/api-keys?type=publishable" -H "$ADMIN" | jq -r '.api_keys[0].token')
STORE="x-publishable-api-key: $KEY"
REGION=$(call "$KASSE_URL/admin/regions" -H "$ADMIN" | jq -r '.regions[] | select(.currency_code == "usd") | .id')
CHANNEL=$(call "$KASSE_URL/admin/sales-channels" -H "$ADMIN" | jq -r '.sales_channels[0].id')
LOCATION=$(call "$KASSE_URL/admin/stock-locations" -H "$ADMIN" | jq -r '.stock_locations[0].id')

# 3. Create a product, published in the sales channel, with one variant priced $15.00.
SKU="MUG-$(date +%s)"
VARIANT=$(call -X POST "$KASSE_URL/admin/products" -H "$ADMIN" -H "$JSON" -d "{
  \"title\": \"Walkthrough Mug\", \"status\": \"published\", \"sales_channels\": [{\"id\": \"$CHANNEL\"}],
  \"options\": [{\"title\": \"Size\", \"values\": [\"One size\"]}],
  \"variants\": [{\"title\": \"One size\", \"sku\": \"$SKU\", \"options\": {\"Size\": \"One size\"},
                  \"prices\": [{\"currency_code\": \"usd\", \"amount\": 1500}]}]}" | jq -r '.product.variants[0].id')
echo "Created variant $VARIANT ($SKU)"

# 4. A cart in the US region. The new variant manages inventory and has no stock yet, so adding it
#    is refused (400 "Insufficient inventory"): a new product cannot be bought until it is stocked.
CART=$(call -X POST "$KASSE_URL/store/carts" -H "$STORE" -H "$JSON" \
  -d "{\"region_id\": \"$REGION\", \"email\": \"shopper@example.com\"}" | jq -r .cart.id)
curl -sS -X POST "$KASSE_URL/store/carts/$CART/line-items" -H "$STORE" -H "$JSON" \
  -d "{\"variant_id\": \"$VARIANT\", \"quantity\": 1}" | jq -r '"Before stocking: " + .message'

# 5. Stock it: its inventory item (created with the variant) gets 10 units at the warehouse.
ITEM=$(call "$KASSE_URL/admin/inventory-items?sku=$SKU" -H "$ADMIN" | jq -r '.inventory_items[0].id')
call -X POST "$KASSE_URL/admin/inventory-items/$ITEM/location-levels" -H "$ADMIN" -H "$JSON" \
  -d "{\"location_id\": \"$LOCATION\", \"stocked_quantity\": 10}" > /dev/null

# 6. Now the line is added; then the addresses.
call -X POST "$KASSE_URL/store/carts/$CART/line-items" -H "$STORE" -H "$JSON" \
  -d "{\"variant_id\": \"$VARIANT\", \"quantity\": 1}" > /dev/null
ADDRESS='{"first_name": "Ada", "last_name": "Lovelace", "address_1": "1 Main St", "city": "New York",
          "postal_code": "10001", "country_code": "us"}'
call -X POST "$KASSE_URL/store/carts/$CART" -H "$STORE" -H "$JSON" \
  -d "{\"shipping_address\": $ADDRESS, \"billing_address\": $ADDRESS}" > /dev/null

# 7. Shipping: the options for this cart, the first one chosen.
OPTION=$(call "$KASSE_URL/store/shipping-options?cart_id=$CART" -H "$STORE" | jq -r '.shipping_options[0].id')
call -X POST "$KASSE_URL/store/carts/$CART/shipping-methods" -H "$STORE" -H "$JSON" \
  -d "{\"option_id\": \"$OPTION\"}" | jq -r '"Cart total with shipping: \(.cart.total) \(.cart.currency_code)"'

# 8. Payment: a collection for the cart, and a session with the region's provider.
COLLECTION=$(call -X POST "$KASSE_URL/store/payment-collections" -H "$STORE" -H "$JSON" \
  -d "{\"cart_id\": \"$CART\"}" | jq -r .payment_collection.id)
PROVIDER=$(call "$KASSE_URL/store/payment-providers?region_id=$REGION" -H "$STORE" | jq -r '.payment_providers[0].id')
call -X POST "$KASSE_URL/store/payment-collections/$COLLECTION/payment-sessions" -H "$STORE" -H "$JSON" \
  -d "{\"provider_id\": \"$PROVIDER\"}" > /dev/null

# 9. Complete the cart: stock is reserved, the payment authorized, the order placed.
call -X POST "$KASSE_URL/store/carts/$CART/complete" -H "$STORE" |
  jq -r 'if .type == "order" then "Order \(.order.id) (#\(.order.display_id)) placed: \(.order.total) \(.order.currency_code), payment \(.order.payment_status)"
         else "Not placed: \(.error.message)\n" | halt_error(1) end'
