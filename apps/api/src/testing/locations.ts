import type { Requester } from "./app";

/**
 * Stock locations made through the admin API, one for each of `names`: their ids, in that order.
 * @example
 * [berlin, hamburg] = await createStockLocations(t, "Berlin", "Hamburg");
 */
export async function createStockLocations<N extends string[]>(
  t: { admin: Requester },
  ...names: N
): Promise<{ [K in keyof N]: string }> {
  const ids: string[] = [];
  for (const name of names) ids.push((await t.admin.post("/admin/stock-locations", { name })).json().stock_location.id);
  return ids as { [K in keyof N]: string };
}
