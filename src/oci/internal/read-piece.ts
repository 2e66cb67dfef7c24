/** What a read left over past the bytes it wanted; passed to the next read. */
export interface ReadCarry {
  rest?: Uint8Array | undefined;
}

/** Reads up to `size` bytes of `body` as they came (no copy); fewer bytes mean the body ended. */
export async function readPiece(body: AsyncIterator<Uint8Array>, size: number, carry: ReadCarry): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < size) {
    let part = carry.rest;
    carry.rest = undefined;
    if (part === undefined) {
      const next = await body.next();
      if (next.done === true) break;
      part = next.value;
    }
    const take = Math.min(part.length, size - length);
    parts.push(take === part.length ? part : part.subarray(0, take));
    if (take < part.length) carry.rest = part.subarray(take);
    length += take;
  }
  return parts;
}
