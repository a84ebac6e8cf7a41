import assert from "node:assert/strict";
import { click, fill, open, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface RefundReason {
  id: string;
  label: string;
  code: string;
  description: string | null;
}

/** Creates a refund reason through the Refund Reasons settings page's form; Kasse stores it with its code. */
export const createRefundReason: DashboardAction = {
  name: "refund-reason-create",
  async run({ page, kasse, api, shot }) {
    await open(page, kasse.origin, "/settings/refund-reasons/create");
    await fill(page, "label", "Damaged in transit");
    await fill(page, "code", "damaged_in_transit");
    await fill(page, "description", "The parcel arrived broken");
    await click(page, "Save");
    await toast(page);
    const reason = await eventually(async () => {
      const { refund_reasons } = await api<{ refund_reasons: RefundReason[] }>(
        "GET",
        "/admin/refund-reasons?code=damaged_in_transit",
      );
      assert.equal(refund_reasons.length, 1, "the refund reason was created");
      return refund_reasons[0]!;
    });
    assert.deepEqual(
      { label: reason.label, description: reason.description },
      { label: "Damaged in transit", description: "The parcel arrived broken" },
    );
    await open(page, kasse.origin, "/settings/refund-reasons");
    await shot("created");
  },
};
