/**
 * A value built by the first call, then kept: for a schema whose object methods its users need (`shape`,
 * `extend`, a patch form cached by identity), which `onFirstUse` does not offer. Nothing is built when the
 * module declaring it loads.
 */
export function builtOnce<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
