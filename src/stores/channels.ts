// Internal: the subscriber side the stores share. Many listeners per channel, one server subscription per channel,
// listen/unlisten calls run one at a time, and the connection released once nothing listens any more.

/** What a store does on its listening connection; the hub decides when. */
export interface ChannelBackend {
  /** Starts listening to `channel` (opening the connection first if needed); resolves once the server confirmed it. */
  listen(channel: string): Promise<void>
  /** Stops listening to `channel`. */
  unlisten(channel: string): Promise<void>
  /** Called after the last channel was unlistened: close or release a connection the store opened. */
  idle?(): Promise<void>
}

/** The subscription half of a store: `subscribe` as SharedStore has it, and `deliver` for the backend's messages. */
export interface ChannelHub {
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>
  /** Hands a message the backend received to the listeners of `channel` (none: ignored). */
  deliver(channel: string, message: string): void
  /** The channels listened to now, for a backend that must listen again on a new connection. */
  channels(): string[]
}

/** A listener's own entry, so one function subscribed twice is two subscriptions, each ended on its own. */
interface Entry {
  listener: (message: string) => void
}

export function createChannelHub(backend: ChannelBackend): ChannelHub {
  const listening = new Map<string, Set<Entry>>()
  let tail: Promise<unknown> = Promise.resolve()
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = tail.then(fn, fn)
    tail = next.catch(() => undefined)
    return next
  }

  return {
    subscribe(channel, listener) {
      if (typeof listener !== "function") return Promise.reject(new TypeError("subscribe: listener must be a function"))
      const entry: Entry = { listener }
      return serial(async () => {
        let entries = listening.get(channel)
        if (!entries) {
          // Only a channel the server confirmed is recorded: a failed listen leaves nothing behind, and the next
          // subscribe tries again.
          try {
            await backend.listen(channel)
          } catch (error) {
            // A connection opened for this first channel is closed again rather than left half set up.
            if (listening.size === 0) await backend.idle?.().catch(() => undefined)
            throw error
          }
          entries = new Set()
          listening.set(channel, entries)
        }
        entries.add(entry)
        const current = entries
        let ended = false
        return () => {
          if (ended) return Promise.resolve()
          ended = true
          return serial(async () => {
            current.delete(entry)
            if (current.size > 0 || listening.get(channel) !== current) return
            listening.delete(channel)
            try {
              await backend.unlisten(channel)
            } finally {
              if (listening.size === 0) await backend.idle?.()
            }
          })
        }
      })
    },
    deliver(channel, message) {
      const entries = listening.get(channel)
      if (!entries) return
      for (const entry of [...entries]) {
        try {
          entry.listener(message)
        } catch {
          // A listener must not throw (SharedStore.subscribe); one that does must not stop the others, nor reach
          // the client library's event loop, where it would end the connection or the process.
        }
      }
    },
    channels: () => [...listening.keys()],
  }
}
