import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import type { CustomerCreate, CustomerCreateContext, CustomerDetail, CustomerUpdate } from "@kasse/modules/customer";
import { writeWithEvents } from "./events";

/**
 * Customer writes outside registration, each in one transaction with its event
 * (`customer.created`, `customer.updated` naming the fields given).
 * @example
 * const customer = await customerWrites.update(app.modules, id, { first_name: "Ana" });
 */
export const customerWrites = {
  create: (m: Modules, input: CustomerCreate, context: CustomerCreateContext = {}): Promise<CustomerDetail> =>
    writeWithEvents(async () => {
      const created = await m.customer.create(input, context);
      await recordEvent("customer.created", {
        id: created.id,
        email: created.email,
        has_account: created.has_account,
      });
      return created;
    }),
  update: (m: Modules, id: string, input: CustomerUpdate): Promise<CustomerDetail> =>
    writeWithEvents(async () => {
      const updated = await m.customer.update(id, input);
      const fields = Object.keys(input).sort();
      if (fields.length > 0) await recordEvent("customer.updated", { id, fields });
      return updated;
    }),
};
