/**
 * Reports whether a UTF-16 code unit is a space that Go's `strings.TrimSpace` removes *and* that
 * Go's JSON encoder writes raw (unescaped): `\t \n \v \f \r` and U+2028/U+2029 are escaped in
 * JSON, so `UnmarshalJSON` sees a backslash there and trims nothing.
 */
function isRawJSONSpace(c: number): boolean {
  return (
    c === 0x20 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/**
 * Trims a JSON string value the way `Quantity.UnmarshalJSON` trims it.
 *
 * Go receives the encoded JSON text, strips the quotes and calls `strings.TrimSpace` on what is
 * left. Modelled on the text Go's own encoder produces for the string (the form the operator
 * receives from the apiserver).
 */
export function trimLikeUnmarshalJSON(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isRawJSONSpace(s.charCodeAt(start))) start++;
  while (end > start && isRawJSONSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
