// Share links that carry data: JSON deflated (CompressionStream, deflate-raw) and written in
// base64url, so a whole game's score card or a hand record fits in a link.

function toBase64Url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** Text, deflated and in base64url. */
export async function pack(text: string): Promise<string> {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

/** The text of `pack`, or null when the link is damaged. */
export async function unpack(packed: string): Promise<string | null> {
  try {
    return new TextDecoder().decode(await pipe(fromBase64Url(packed), new DecompressionStream("deflate-raw")));
  } catch {
    return null;
  }
}
