import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import de from "../mindwidget/locales/class/de.json";
import en from "../mindwidget/locales/class/en.json";
import nl from "../mindwidget/locales/class/nl.json";
import { TABLE_SENDS, liveness, makeModel, quietMs, route, say, tableLines } from "./classmodel.js";
import { seatNames } from "./render.js";

describe("the class page's words", () => {
  it("are the same keys in every language, with the join form's labels", () => {
    expect(Object.keys(nl).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    expect([say("nl", "code"), say("nl", "name"), say("nl", "join")]).toEqual(["Code", "Naam", "Meedoen"]);
    expect([say("de", "code"), say("de", "name"), say("de", "join")]).toEqual(["Code", "Name", "Mitspielen"]);
    expect(say("nl", "you_are", { name: "Bram", table: 1, seat: 2 })).toBe("Bram · Tafel 1 · Speler 2");
  });
});

describe("the model shim", () => {
  it("applies a whole state, then changes, and tells the widget's listeners", () => {
    const sent = [];
    const model = makeModel((m) => sent.push(m));
    const heard = [];
    model.on("change:view", () => heard.push("view"));
    model.on("change:lang", () => heard.push("lang"));
    model.on("msg:custom", (m) => heard.push(m.type)); // nothing emits it
    const view = { seat: 1, players: 3, tempo: null, speeds: [], names: [null, null, "Bram"] };
    model.apply({ view, lang: "nl", old: 1 }, true);
    expect(model.get("view")).toEqual(view); // the server's view, as it came: no edits
    model.apply({ lang: "de", live_trace: { epoch: 1, from: 0, points: [] } });
    expect(heard).toEqual(["view", "lang", "lang"]);
    // the widget draws the timeline from `live_trace` (its synced name in the notebook)
    const points = [{ seat: 0, card: 12 }];
    model.on("change:live_trace", () => heard.push("live_trace"));
    model.apply({ live_trace: { epoch: 2, from: 0, points } });
    expect(model.get("live_trace")).toEqual({ epoch: 2, from: 0, points });
    expect(heard.at(-1)).toBe("live_trace");
    model.apply({ view: { seat: 1, players: 3 } }, true);
    expect(model.get("old")).toBeUndefined(); // a whole state replaces what was held
    model.set("lang", "en");
    model.save_changes();
    model.send({ type: "play" });
    expect(sent).toEqual([{ type: "set", name: "lang", value: "en" }, { type: "play" }]);
  });

  it("shows the other pupils' names the server put in the view", () => {
    const model = makeModel(() => {});
    model.apply({ view: { seat: 0, players: 3, names: ["Anna", "Bram", null] } }, true);
    expect(seatNames(model.get("view"), "nl")).toEqual(["Jij", "Bram", "Bot 3"]);
  });
});

describe("the lines around the table", () => {
  const info = {
    table: 1,
    seat: 0,
    ready: true,
    seats: [
      { seat: 0, kind: "person", name: "Anna", connected: true },
      { seat: 1, kind: "person", name: "Bram", connected: false },
      { seat: 2, kind: "bot" },
    ],
    waiting_for: [0, 1],
  };
  it("say who sits where, who is gone, and whose Ready the table waits for", () => {
    const { who, waiting } = tableLines(info, "nl");
    expect(who).toBe("1. Anna (jij) · 2. Bram (verbinding kwijt) · 3. Bot 3");
    expect(waiting).toBe("Wachten op Klaar van: Bram");
    expect(tableLines({ ...info, ready: false }, "nl").waiting).toBe(""); // the table says "press Ready"
  });
});

describe("a lost connection (issue 24, part 2)", () => {
  it("is heard as silence: no message for a ping interval and 3 s more, or a close", () => {
    let t = 0;
    const live = liveness(() => t);
    expect(live.lost()).toBe(true); // nothing heard yet
    live.heard(2); // the welcome says the server pings every 2 s
    expect(live.lost()).toBe(false);
    t = 4999;
    expect(live.lost()).toBe(false);
    t = 5001;
    expect([live.lost(), live.silent()]).toEqual([true, true]);
    live.heard();
    expect(live.lost()).toBe(false);
    live.closed();
    expect([live.lost(), live.silent()]).toEqual([true, false]);
    expect([quietMs(2), quietMs(5), quietMs(), quietMs(-1), quietMs(100)]).toEqual([
      5000, 8000, 8000, 8000, 20000,
    ]);
  });

  it("never queues a table's press for later: it is not sent, and joining waits for the socket", () => {
    const queue = [];
    const sent = [];
    const up = (m) => (sent.push(m), true);
    const down = () => false;
    const play = { type: "play", t: 1 };
    expect(route(play, { joined: true, lost: true, trySend: up, queue })).toBe("not_sent");
    expect(route(play, { joined: true, lost: false, trySend: down, queue })).toBe("not_sent");
    expect(route({ type: "vote", agree: true }, { joined: true, lost: true, trySend: up, queue })).toBe(
      "not_sent",
    );
    expect(route(play, { joined: false, lost: false, trySend: up, queue })).toBe("dropped");
    expect(queue).toEqual([]);
    expect(sent).toEqual([]); // nothing went, nothing waits to go
    expect(route(play, { joined: true, lost: false, trySend: up, queue })).toBe("sent");
    const join = { type: "join", code: "1", name: "A" };
    expect(route(join, { joined: false, lost: true, trySend: down, queue })).toBe("queued");
    expect(queue).toEqual([join]);
  });

  it("of what a pupil's page may send (wire.py PupilMessage), only the class's own messages wait", () => {
    const schema = JSON.parse(readFileSync(new URL("./wire.schema.json", import.meta.url), "utf8"));
    const types = (ref) => {
      const def = schema.$defs[ref.split("/").pop()];
      const type = def.properties.type;
      return type.enum ?? [type.const];
    };
    const pupil = schema.$defs.PupilMessage.anyOf.flatMap((m) => types(m.$ref));
    const waits = pupil.filter((type) => !TABLE_SENDS.has(type));
    expect(waits.sort()).toEqual(["join", "nickname", "own_clock", "ping", "pong", "rejoin"]);
  });

  it("shows the table paused: every action disabled, the clock standing still, until it is back", () => {
    let t = 1000;
    const model = makeModel(
      () => {},
      () => t,
    );
    const heard = [];
    model.on("change:view", () => heard.push("view"));
    model.on("change:clock", () => heard.push("clock"));
    const view = { seat: 0, players: 3, phase: "play", allowed: ["play", "stop", "propose_star"] };
    model.apply({ view, clock: { running: true, t: 2, seq: 4, epoch: 1, speed: 1, beat: false } }, true);
    t += 1500; // 1.5 s later the connection is lost: the clock stands at 3.5 s
    model.setOffline(true);
    expect(model.get("view").allowed).toEqual([]);
    expect(model.get("view").offline).toBe(true);
    expect(model.get("clock")).toMatchObject({ running: false, t: 3.5 });
    model.apply({ view: { ...view, n: 3 } }); // a late update while offline stays paused
    expect(model.get("view").allowed).toEqual([]);
    t += 2000;
    expect(model.get("clock").t).toBe(3.5);
    heard.length = 0;
    model.setOffline(false);
    expect(heard).toEqual(["view", "clock"]);
    expect(model.get("view").allowed).toEqual(["play", "stop", "propose_star"]);
    expect(model.get("view").offline).toBeUndefined();
    expect(model.get("clock")).toMatchObject({ running: true, t: 5.5 }); // where the table's clock is now
    expect(model.get("clock").t).toBe(2); // then the server's own, as it sent it
  });
});
