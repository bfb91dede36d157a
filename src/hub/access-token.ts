/** Line breaks and surrounding blanks are never part of a token; an empty result means "none". */
export function cleanToken(token: string | undefined): string | undefined {
  const cleaned = token?.replace(/[\r\n]/g, '').trim();
  return cleaned ? cleaned : undefined;
}
