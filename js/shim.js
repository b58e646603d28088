// A model as anywidget's (get / set / save_changes / on / off / send), carried by
// one WebSocket: the pupil's page (class.js) and the teacher's page
// (teacher.js) draw the notebook's own front ends through it.

/**
 * A model as anywidget's, over the socket: `apply` takes what the server sends
 * (a whole state, or only the changed keys) and tells the widget's listeners.
 */
export function makeModel(send) {
  const values = {};
  /** the other pupils' names by seat (null: a bot), shown at their seats */
  let names = [];
  // at a class table the bots' tempo is the teacher's: no menu for it (the server refuses it too)
  const classView = (view) => ({ ...view, names, tempo: null, speeds: [] });
  const handlers = new Map();
  let pending = {};
  const emit = (event, ...args) => {
    for (const fn of [...(handlers.get(event) || [])]) fn(...args);
  };
  return {
    get: (key) => values[key],
    set(key, value) {
      values[key] = value;
      pending[key] = value;
    },
    save_changes() {
      for (const [name, value] of Object.entries(pending)) send({ type: "set", name, value });
      pending = {};
    },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      handlers.get(event)?.delete(fn);
    },
    send: (msg) => send(msg),
    /** The names at the table changed (a pupil joined, a bot took a seat). */
    setNames(next) {
      if (JSON.stringify(next) === JSON.stringify(names)) return;
      names = next;
      if (values.view) {
        values.view = classView(values.view);
        emit("change:view");
      }
    },
    /** Take the server's values; `whole`: they replace everything held. */
    apply(state, whole = false) {
      const keys = Object.keys(state);
      if (whole) for (const k of Object.keys(values)) if (!(k in state)) delete values[k];
      for (const k of keys) values[k] = k === "view" && state.view ? classView(state.view) : state[k];
      for (const k of keys) emit(`change:${k}`);
      // the trace, also as the message the notebook widget's older front end reads
      if (state.trace && typeof state.trace === "object")
        emit("msg:custom", { type: "trace", ...state.trace });
    },
  };
}
