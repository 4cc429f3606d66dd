// A game's record ({"state", "moves"}) in a link, as the replay and play pages write it: deflated and in base64url
// ("z…"), or plain JSON in base64url ("j…") where the browser cannot deflate. Whatever writes one, reads one.

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function encodeRecord(record) {
  const bytes = new TextEncoder().encode(JSON.stringify(record));
  if (typeof CompressionStream === "function") {
    return "z" + toBase64Url(await through(new CompressionStream("deflate-raw"), bytes));
  }
  return "j" + toBase64Url(bytes);
}

export async function decodeRecord(text) {
  try {
    let bytes = fromBase64Url(text.slice(1));
    if (text[0] === "z") bytes = await through(new DecompressionStream("deflate-raw"), bytes);
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    return undefined;
  }
}
