// One WebSocket to the class server that comes back: the pupil's page (class.js)
// and the teacher's page (teacher.js) each keep one open and connect again after
// it closes, waiting longer each time (from `firstMs`, doubling, at most `maxMs`).
// Every message is JSON; what is not is dropped.

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
  const connect = () => {
    ws = new WebSocket(url());
    ws.addEventListener("open", () => open?.());
    ws.addEventListener("message", (ev) => {
      const msg = parse(ev.data);
      if (msg !== null) message(msg);
    });
    ws.addEventListener("close", () => {
      if (stopped) return;
      closed?.();
      wait = Math.min(maxMs, wait ? wait * 2 : firstMs);
      setTimeout(connect, wait);
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
  };
}
