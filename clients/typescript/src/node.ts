// Node transports: gRPC over HTTP/2 (connect-node), or gRPC-Web over HTTP/1.1.
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { MahjongService } from "./gen/mahjong/v1/mahjong_service_pb.js";

/** The protocols a Node client can speak to the referee. */
export type Protocol = "grpc" | "grpc-web";

/** A MahjongService client for Node, e.g. `nodeClient("http://127.0.0.1:50051")`. */
export function nodeClient(
  baseUrl: string,
  protocol: Protocol = "grpc",
): Client<typeof MahjongService> {
  const transport =
    protocol === "grpc"
      ? createGrpcTransport({ baseUrl })
      : createGrpcWebTransport({ baseUrl, httpVersion: "1.1" });
  return createClient(MahjongService, transport);
}
