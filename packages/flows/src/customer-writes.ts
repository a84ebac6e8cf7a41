import type { Db } from "@kasse/db";
import { recordEvent } from "@kasse/modules/event";
import { createCustomerService, type CustomerCreate, type CustomerCreateContext, type CustomerDetail, type CustomerUpdate } from "@kasse/modules/customer";
import { withEvents } from "./events";

/**
 * Customer writes outside registration, each in one transaction with its event
 * (`customer.created`, `customer.updated` naming the fields given).
 * @example
 * const customer = await customerWrites.update(db, id, { first_name: "Ana" });
 */
export const customerWrites = {
  create: (db: Db, input: CustomerCreate, context: CustomerCreateContext = {}): Promise<CustomerDetail> =>
    withEvents(db, async (tx) => {
      const created = await createCustomerService(tx).create(input, context);
      await recordEvent(tx, "customer.created", { id: created.id, email: created.email, has_account: created.has_account });
      return created;
    }),
  update: (db: Db, id: string, input: CustomerUpdate): Promise<CustomerDetail> =>
    withEvents(db, async (tx) => {
      const updated = await createCustomerService(tx).update(id, input);
      const fields = Object.keys(input).sort();
      if (fields.length > 0) await recordEvent(tx, "customer.updated", { id, fields });
      return updated;
    }),
};
