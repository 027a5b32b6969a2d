// The provider objects the v4 provider modules made (or fromV4Provider translated): fromV4Provider leaves them alone,
// so a provider is never translated twice (a credentials `authorize` wrapped twice would get v4's request object
// where Gatehouse's wrapper expects a web Request).
const translated = new WeakSet<object>()

/** Records a provider as Gatehouse's already. */
export function markTranslated<T extends object>(provider: T): T {
  translated.add(provider)
  return provider
}

/** Whether a v4 module made this provider, or fromV4Provider translated it. */
export function isTranslated(provider: object): boolean {
  return translated.has(provider)
}
