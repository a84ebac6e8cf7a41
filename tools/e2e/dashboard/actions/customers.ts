import assert from "node:assert/strict";
import { click, fill, landedOn, open, toast } from "../ui";
import type { DashboardAction } from "./action";

interface Customer {
  id: string;
  email: string;
  first_name: string | null;
  groups?: Array<{ id: string; name: string }>;
}

/** Creates a customer and a customer group through their forms, then adds the customer to the group. */
export const customersAndGroups: DashboardAction = {
  name: "customer-and-group",
  async run({ page, kasse, api, shot }) {
    await open(page, kasse.origin, "/customers/create");
    await fill(page, "first_name", "Katherine");
    await fill(page, "last_name", "Johnson");
    await fill(page, "email", "katherine@example.com");
    await click(page, "Create");
    await toast(page);
    const customerId = (await landedOn(page, /^\/app\/customers\/cus_/)).split("/").pop()!;
    const { customer } = await api<{ customer: Customer }>("GET", `/admin/customers/${customerId}`);
    assert.equal(customer.email, "katherine@example.com");
    assert.equal(customer.first_name, "Katherine");
    await shot("customer");

    await open(page, kasse.origin, "/customer-groups/create");
    await fill(page, "name", "Wholesale");
    await click(page, "Create");
    await toast(page);
    const groupId = (await landedOn(page, /^\/app\/customer-groups\/cusgroup_/)).split("/").pop()!;

    await open(page, kasse.origin, `/customer-groups/${groupId}/add-customers`);
    await page
      .getByRole("row", { name: /katherine@example\.com/ })
      .getByRole("checkbox")
      .click();
    await click(page, "Save");
    await toast(page);
    await landedOn(page, new RegExp(`^/app/customer-groups/${groupId}$`));
    const { customers } = await api<{ customers: Customer[] }>(
      "GET",
      `/admin/customers?groups=${groupId}&fields=id,email,*groups`,
    );
    assert.deepEqual(
      customers.map((c) => c.email),
      ["katherine@example.com"],
    );
    await shot("group");
  },
};
