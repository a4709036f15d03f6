// The TypeScript client of mahjong.v1.MahjongService: the generated messages and service
// (protobuf-es v2, src/gen/), plus what every caller needs whatever the transport:
// the referee's error details decoded, and the outcome and ruleset names used in URLs.
// Transports: "./node" (gRPC over HTTP/2, or gRPC-Web, for Node) and "./web" (gRPC-Web from
// a browser).
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type BadRequest_FieldViolation,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";
import { Outcome } from "./gen/mahjong/v1/scoring_pb.js";
import { Ruleset } from "./gen/mahjong/v1/ruleset_pb.js";

export * from "./gen/mahjong/v1/accounting_pb.js";
export * from "./gen/mahjong/v1/analysis_pb.js";
export * from "./gen/mahjong/v1/fan_pb.js";
export * from "./gen/mahjong/v1/hand_pb.js";
export * from "./gen/mahjong/v1/house_rules_pb.js";
export * from "./gen/mahjong/v1/mahjong_service_pb.js";
export * from "./gen/mahjong/v1/play_pb.js";
export * from "./gen/mahjong/v1/ruleset_pb.js";
export * from "./gen/mahjong/v1/scoring_pb.js";
export * from "./gen/mahjong/v1/tile_pb.js";
export * from "./gen/google/rpc/error_details_pb.js";
export { Code, ConnectError };

/** A failed call as the referee describes it. */
export interface RefereeError {
  /** The gRPC status code. */
  code: Code;
  /** The gRPC status message. */
  message: string;
  /** The stable reason (ErrorInfo.reason), e.g. INVALID_HAND; "" when the status had none. */
  reason: string;
  /** ErrorInfo.domain: "mahjong.v1" for the referee's own errors. */
  domain: string;
  /** ErrorInfo.metadata. */
  metadata: Record<string, string>;
  /** BadRequest.field_violations: one entry per problem of a malformed request. */
  violations: BadRequest_FieldViolation[];
}

/**
 * The referee's error details (google.rpc ErrorInfo and BadRequest, from
 * grpc-status-details-bin) of a failed call: `undefined` when `error` is not a ConnectError.
 */
export function refereeError(error: unknown): RefereeError | undefined {
  if (!(error instanceof ConnectError)) {
    return undefined;
  }
  const info: ErrorInfo | undefined = error.findDetails(ErrorInfoSchema)[0];
  const violations = error.findDetails(BadRequestSchema).flatMap((b) => b.fieldViolations);
  return {
    code: error.code,
    message: error.rawMessage,
    reason: info?.reason ?? "",
    domain: info?.domain ?? "",
    metadata: info?.metadata ?? {},
    violations,
  };
}

/** The ruleset names of the command line and of kiosk links, and their enum values. */
export const RULESET_NAMES: ReadonlyArray<readonly [string, Ruleset]> = [
  ["chinese-official-1998", Ruleset.CHINESE_OFFICIAL_1998],
  ["mil", Ruleset.MIL],
  ["green-book-2006", Ruleset.GREEN_BOOK_2006],
];

/** The ruleset of a name of RULESET_NAMES, or undefined. */
export function rulesetFromName(name: string): Ruleset | undefined {
  return RULESET_NAMES.find(([n]) => n === name)?.[1];
}

/** The name of a ruleset in RULESET_NAMES ("chinese-official-1998" for the default). */
export function rulesetName(ruleset: Ruleset): string {
  const found = RULESET_NAMES.find(([, r]) => r === ruleset);
  return found ? found[0] : "chinese-official-1998";
}

/** The short outcome names of the kiosk (WIN, BELOW_MINIMUM, NOT_WINNING_SHAPE, INVALID). */
export function outcomeName(outcome: Outcome): string {
  return Outcome[outcome] ?? "UNSPECIFIED";
}
