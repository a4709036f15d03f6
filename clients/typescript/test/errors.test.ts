// The referee's error details (google.rpc ErrorInfo and BadRequest in
// grpc-status-details-bin) decoded in TypeScript, over both protocols.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Code, refereeError, type RefereeError, type Seat, type Wind } from "../src/index.js";
import { nodeClient, type Protocol } from "../src/node.js";
import { type Referee, startReferee } from "./server.js";

const BATCH_LIMIT = 4;

let referee: Referee;
before(async () => {
  referee = await startReferee(["--max-batch-hands", String(BATCH_LIMIT)]);
});
after(async () => {
  await referee.stop();
});

/** The RefereeError of a call that must fail. */
async function failure(call: Promise<unknown>): Promise<RefereeError> {
  try {
    await call;
  } catch (error) {
    const details = refereeError(error);
    assert.ok(details, `not a ConnectError: ${String(error)}`);
    return details;
  }
  assert.fail("the call succeeded");
}

for (const protocol of ["grpc", "grpc-web"] as Protocol[]) {
  describe(`over ${protocol}`, () => {
    const client = () => nodeClient(referee.baseUrl, protocol);

    test("a malformed hand: INVALID_ARGUMENT, ErrorInfo INVALID_HAND, one violation a problem", async () => {
      // Five of one tile, and a seat wind out of range.
      const error = await failure(
        client().scoreHand({
          handInput: { case: "notation", value: "11111m23456p789s1m" },
          context: { seatWind: 9 as Wind },
        }),
      );
      assert.equal(error.code, Code.InvalidArgument);
      assert.equal(error.reason, "INVALID_HAND");
      assert.equal(error.domain, "mahjong.v1");
      assert.ok(error.violations.length >= 2, JSON.stringify(error.violations));
      for (const v of error.violations) {
        assert.ok(v.field !== "", "every violation names its field");
        assert.ok(v.description.startsWith(`${v.reason}: `), v.description);
      }
      const fields = error.violations.map((v) => v.field);
      assert.ok(fields.includes("context.seat_wind"), fields.join(", "));
    });

    test("a batch above --max-batch-hands: BATCH_TOO_LARGE with the limit", async () => {
      const requests = Array.from({ length: BATCH_LIMIT + 1 }, () => ({
        handInput: { case: "notation" as const, value: "[123m][789m][123p]55s89p7p" },
      }));
      const error = await failure(client().batchScoreHands({ requests }));
      assert.equal(error.code, Code.InvalidArgument);
      assert.equal(error.reason, "BATCH_TOO_LARGE");
      assert.ok(Object.values(error.metadata).includes(String(BATCH_LIMIT)), JSON.stringify(error.metadata));
    });

    test("a malformed settlement: INVALID_REQUEST with the field", async () => {
      const error = await failure(client().settleHand({ winner: 7 as Seat }));
      assert.equal(error.code, Code.InvalidArgument);
      assert.equal(error.reason, "INVALID_REQUEST");
      assert.ok(error.violations.length > 0);
    });
  });
}
