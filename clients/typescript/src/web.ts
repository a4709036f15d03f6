// The browser transport: gRPC-Web over fetch (connect-web).
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { MahjongService } from "./gen/mahjong/v1/mahjong_service_pb.js";

/** A MahjongService client over gRPC-Web; `baseUrl` defaults to the page's own origin. */
export function webClient(baseUrl: string = globalThis.location.origin): Client<typeof MahjongService> {
  return createClient(MahjongService, createGrpcWebTransport({ baseUrl }));
}
