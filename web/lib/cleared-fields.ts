/**
 * The fields an edit emptied, each as null: a PATCH keeps every field it leaves out, so a field the user
 * emptied must be sent as null for the server to remove it. Fields that were empty already stay out.
 */
export function clearedFields<K extends string>(
  values: Readonly<Record<K, string>>,
  before: Readonly<Partial<Record<NoInfer<K>, unknown>>>,
): Partial<Record<K, null>> {
  const had = (value: unknown) => value !== undefined && value !== null && value !== '';
  const emptied = (Object.keys(values) as K[]).filter((k) => values[k].trim() === '' && had(before[k]));
  return Object.fromEntries(emptied.map((k) => [k, null])) as Partial<Record<K, null>>;
}
