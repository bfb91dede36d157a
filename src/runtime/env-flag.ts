/** huggingface_hub's reading of a boolean variable: `1`, `ON`, `YES` or `TRUE`, in any case; anything else is false. */
export function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'ON', 'YES', 'TRUE'].includes(value.toUpperCase());
}
