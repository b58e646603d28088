// One WebSocket to the class server that comes back: the pupil's page (class.js)
// and the teacher's page (teacher.js) each keep one open and connect again after
// it closes, waiting longer each time (from `firstMs`, doubling, at most `maxMs`).
// Every message is JSON; what is not is dropped. A socket that went silent (a Wi-Fi
// out of range closes nothing) is given up with `drop`: its late events are ignored
// and a new one connects, as after a close.

/** A frame's JSON, or null if it is not JSON. */
export function parse(data) {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * @param {() => string} url the address, asked again at each connect
 * @param {{ open?: () => void, message: (msg: any) => void, closed?: () => void,
 *   firstMs: number, maxMs: number }} on
 */
export function keepOpen(url, { open, message, closed, firstMs, maxMs }) {
  /** @type {WebSocket | null} */
  let ws = null;
  let wait = 0;
  let stopped = false;
  const again = () => {
    closed?.();
    wait = Math.min(maxMs, wait ? wait * 2 : firstMs);
    setTimeout(connect, wait);
  };
  const connect = () => {
    const mine = new WebSocket(url());
    ws = mine;
    // a socket given up (`drop`) says nothing more: what it still brings is from before
    const current = () => ws === mine && !stopped;
    mine.addEventListener("open", () => current() && open?.());
    mine.addEventListener("message", (ev) => {
      if (!current()) return;
      const msg = parse(ev.data);
      if (msg !== null) message(msg);
    });
    mine.addEventListener("close", () => {
      if (current()) again();
    });
  };
  connect();
  return {
    /** Sends ``msg`` if the socket is open; whether it did. */
    send(msg) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    /** The server answered: the next drop waits `firstMs` again. */
    answered() {
      wait = 0;
    },
    /** No more connecting (the server said goodbye). */
    stop() {
      stopped = true;
    },
    /** Give up this socket (it went silent) and connect a new one, as after a close. */
    drop() {
      if (stopped || !ws) return;
      const old = ws;
      ws = null;
      try {
        old.close();
      } catch {
        // closing a socket that never opened may throw: it is given up all the same
      }
      again();
    },
  };
}
