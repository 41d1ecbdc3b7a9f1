import { test } from "node:test";
import assert from "node:assert/strict";
import { approveWords } from "./signoff.js";

test("approveWords names the whole plan or the branch", () => {
  assert.equal(approveWords("", "Version 2 “Client review”"), "Approve the whole plan of Version 2 “Client review”");
  assert.equal(approveWords("Pricing", "Version 2 “Client review”"), "Approve “Pricing” and the pages below it of Version 2 “Client review”");
});
