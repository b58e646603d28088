import { describe, expect, it } from "vitest";
import { baseView, views } from "./fixtures.js";
import { tr } from "./i18n.js";
import { BESIDE_PX, announce, keysHint, phaseText, renderTable, seatNames, traceLayout } from "./render.js";

// a view as Python sends it (js/fixtures.js; js/wire.test.js validates it against the schema)
const base = baseView;
const view = (over = {}) => ({ ...base, ...over });
const ctx = (over = {}) => ({
  lang: "en",
  mode: "realtime",
  joining: false,
  now: 2,
  points: [],
  notice: {},
  ...over,
});
const html = (v, c) => renderTable(view(v), ctx(c));
const has = (s, testid) => s.includes(`data-testid="${testid}"`);
const enabled = (s, testid) => {
  const m = s.match(new RegExp(`<button[^>]*data-testid="${testid}"[^>]*>`));
  return m !== null && !m[0].includes(" disabled");
};

describe("rendering each state of the table", () => {
  it("ready: hands on the table, only Ready is enabled", () => {
    const s = html({ phase: "ready", pile: [], pile_by: [], allowed: ["ready"] });
    expect(s).toContain("Hands on the table");
    expect(enabled(s, "btn-ready")).toBe(true);
    expect(enabled(s, "btn-play")).toBe(false);
    expect(enabled(s, "lowest-card")).toBe(false);
    expect(s).toContain("No card played yet");
  });

  it("ready, joining: Ready is pressed and waits for the bots", () => {
    const s = html({ phase: "ready", allowed: ["ready"] }, { joining: true });
    expect(s).toContain("teammates join");
    expect(enabled(s, "btn-ready")).toBe(false);
  });

  it("play: own hand face up with the lowest marked, others face down with counts", () => {
    const s = html({});
    expect(s).toMatch(/data-testid="lowest-card" data-card="12"/);
    expect(s).toContain("lowest");
    expect(enabled(s, "btn-play") && enabled(s, "btn-stop") && enabled(s, "btn-star")).toBe(true);
    expect(s).toContain('data-testid="count-1">2 cards');
    expect(s).toContain('data-testid="count-2">1 card');
    expect((s.match(/mw-back/g) || []).length).toBe(3);
    expect(s).not.toContain(">40<span"); // 40 is not the lowest: not a button
    expect(s).toMatch(/data-testid="pile-top" data-card="7"[^>]*>.*Bot 2.*<span class="mw-num">7</);
    expect(s).toContain("Level 2 of 10");
    expect(s).toContain('data-testid="lives" data-count="3"');
  });

  it("play with no stars: the star button is disabled", () => {
    expect(enabled(html({ stars: 0, allowed: ["play", "stop"] }), "btn-star")).toBe(false);
  });

  it("stopped: names who stopped; Ready resumes", () => {
    const s = html({ phase: "stopped", allowed: ["ready"], why: "stop", stopped_by: 0 });
    expect(s).toContain("You called stop");
    expect(enabled(s, "btn-ready")).toBe(true);
    expect(enabled(s, "btn-play")).toBe(false);
  });

  it("play with no cards left: the person is not asked to play a card", () => {
    const s = html({ phase: "play", allowed: ["stop"], hand: [] });
    expect(s).toContain("You have no cards left: watch the others play.");
    expect(s).not.toContain("Play your lowest card");
    expect(html({ phase: "play", allowed: ["play"], hand: [12] })).toContain("Play your lowest card");
  });

  it("vote proposed by a bot: the person gets Agree and Decline", () => {
    const s = html({
      phase: "vote",
      allowed: ["vote"],
      vote: { by: 1, votes: { 1: true, 2: true }, result: "open" },
    });
    expect(s).toContain(
      "Bot 2 proposes a throwing star: if everyone agrees, everyone puts their lowest card aside face up. Do you agree?",
    );
    expect(enabled(s, "btn-agree") && enabled(s, "btn-decline")).toBe(true);
    expect(s).toContain('data-testid="vote-2" data-vote="true"');
    expect(s).toContain('data-testid="vote-0" data-vote=""');
    expect(enabled(s, "btn-play")).toBe(false);
    // the row beside the pile grows while this seat may vote (its buttons stay in sight)
    expect(s).toContain('class="mw-middle mw-voting"');
  });

  it("vote result: each vote and the result show", () => {
    const s = html({ vote: { by: 0, votes: { 0: true, 1: true, 2: false }, result: "declined" } });
    expect(s).toContain("Bot 3 declines.");
    expect(s).toContain("You agree.");
    expect(s).toContain("Declined: the throwing star stays.");
    expect(has(s, "btn-agree")).toBe(false);
    expect(s).toContain('class="mw-middle"'); // no vote of this seat: the row keeps its height
  });

  it("a vote declined before everyone voted: nobody is said to be voting still", () => {
    const s = html({ vote: { by: 1, votes: { 1: true, 2: false }, result: "declined" } });
    expect(s).toContain("Bot 3 declines.");
    expect(s).not.toContain("not voted");
    expect(s).not.toContain('data-testid="vote-0"');
    const open = html({ vote: { by: 1, votes: { 1: true }, result: "open" } });
    expect(open).toContain("You have not voted yet.");
  });

  it("mistake: which play, which cards from whom, the life lost", () => {
    const mistake = {
      type: "mistake",
      player: 2,
      card: 30,
      lives_lost: 1,
      lives: 2,
      t: 2,
      discards: [
        { player: 0, card: 12 },
        { player: 1, card: 20 },
      ],
    };
    const s = html({
      mistake,
      lives: 2,
      discards: [
        { player: 0, card: 12, k: "lost" },
        { player: 1, card: 20, k: "lost" },
      ],
    });
    expect(s).toContain("Bot 3 played 30, but lower cards were still held.");
    expect(s).toContain("Put aside: 12 (You), 20 (Bot 2).");
    expect(s).toContain("One life lost; 2 lives left.");
    expect(s).toContain('data-testid="discard" data-card="20" data-player="1"');
  });

  it("level cleared: the reward and Next level", () => {
    const cleared = { type: "cleared", level: 2, reward: "star", granted: true, lives: 3, stars: 2 };
    const s = html({ phase: "cleared", cleared, hand: [], counts: [0, 0, 0], allowed: ["next_level"] });
    expect(s).toContain("Level 2 cleared!");
    expect(s).toContain("Reward: one extra throwing star.");
    expect(enabled(s, "btn-next-level")).toBe(true);
  });

  it("won: Play blind and New game", () => {
    const cleared = { type: "cleared", level: 10, reward: null, granted: false };
    const s = html({ phase: "won", level: 10, cleared, allowed: ["start_blind", "new_game"] });
    expect(s).toContain("You won: all 10 levels cleared!");
    expect(has(s, "btn-play-blind") && has(s, "btn-new-game")).toBe(true);
  });

  it("lost: New game only", () => {
    const s = html({ phase: "lost", lives: 0, allowed: ["new_game"] });
    expect(s).toContain("Game over");
    expect(has(s, "btn-new-game")).toBe(true);
    expect(has(s, "btn-next-level") || has(s, "btn-play-blind")).toBe(false);
  });

  it("blind: the pile is face down and the check shows card by card", () => {
    const s1 = html({ blind: true, pile: [null, 12], pile_by: [1, 0] });
    expect(s1).toContain("Blind mode: cards face down");
    expect(s1).toContain("Blind level 2 of 10");
    const check = { type: "blind_checked", pile: [5, 30, 21], faults: [30], lives_lost: 1, lives: 2 };
    const s2 = html({ blind: true, phase: "cleared", check });
    expect((s2.match(/data-testid="check-card"/g) || []).length).toBe(3);
    expect(s2).toMatch(/animation-delay:0\.70s/);
    expect(s2).toContain("1 card lies on a higher one. 1 life lost.");
  });

  it("a wide cell: the trace beside the table, drawn for its column", () => {
    const below = html({}, { width: 700 });
    expect(below).toContain('<div class="mw-layout">');
    expect(below).toContain('viewBox="0 0 480 200"');
    const beside = html({}, { width: 1200 });
    expect(beside).toContain('<div class="mw-layout mw-beside">');
    expect(beside).toContain('viewBox="0 0 260 210"');
    expect(html({}, { width: 850 })).toContain('viewBox="0 0 180 170"'); // 1280x720, file browser open
  });

  it("where the trace stands: by the widget's width, or by its size while the width is unknown", () => {
    expect(traceLayout(0, "projector")).toEqual({ beside: true, drawing: "projector" });
    expect(traceLayout(0, "normal")).toEqual({ beside: false, drawing: "notebook" });
    expect(traceLayout(340, "normal")).toEqual({ beside: false, drawing: "narrow" }); // a phone
    expect(traceLayout(700, "normal")).toEqual({ beside: false, drawing: "notebook" });
    expect(traceLayout(700, "projector")).toEqual({ beside: true, drawing: "narrow" });
    expect(traceLayout(BESIDE_PX, "normal")).toEqual({ beside: true, drawing: "narrow" });
    expect(traceLayout(1500, "normal")).toEqual({ beside: true, drawing: "projector" });
  });

  it("the countdown stands beside the seat's cards, not after its name", () => {
    const s = html({ hands: [[12, 40], [15, 60], [90]], plans: { 1: 4.5 } }, { now: 2 });
    expect(s).toMatch(/<div class="mw-cards mw-fan">[^]*data-testid="plan-1"[^]*<\/div><\/div>/);
    expect(s).not.toMatch(/mw-seat-name">(?:(?!<\/div>)[^])*data-testid="plan-1"/);
  });

  it("reveal: every hand face up and each bot's countdown", () => {
    const s = html({ hands: [[12, 40], [15, 60], [90]], plans: { 1: 4.5, 2: 9 } }, { now: 2 });
    expect(s).toContain('data-testid="plan-1">plays in 2.5 s');
    expect(s).toContain('data-testid="plan-2">plays in 7.0 s');
    expect(s).toContain(">60<");
    expect(s).not.toContain("mw-back");
  });

  it("seat None: no own hand and no person buttons", () => {
    const s = html({ seat: null, hand: [], phase: "ready", allowed: ["ready"] });
    expect(has(s, "hand") || has(s, "btn-play")).toBe(false);
    expect(enabled(s, "btn-ready")).toBe(true);
    expect(seatNames(view({ seat: null }), "en")).toEqual(["Bot 1", "Bot 2", "Bot 3"]);
  });

  it("seat None after a stop: the class can press Ready to go on", () => {
    const s = html({ seat: null, hand: [], phase: "stopped", allowed: ["ready"] });
    expect(enabled(s, "btn-ready")).toBe(true);
  });

  it("step mode: Wait, while a bot still holds cards", () => {
    const s = html({ allowed: ["play", "stop", "propose_star", "wait"] }, { mode: "step" });
    expect(enabled(s, "btn-wait")).toBe(true);
    expect(s).toContain("Step mode");
    expect(enabled(html({ counts: [2, 0, 0] }, { mode: "step" }), "btn-wait")).toBe(false);
    expect(html({ seat: null }, { mode: "step" })).toContain("Keys: R is Ready, W waits.");
  });

  it("a notice is an alert in the widget's language", () => {
    const notice = { key: "too_late", params: { t: 1, last: 2 }, id: 1 };
    expect(html({}, { notice })).toMatch(
      /data-testid="notice"[^>]*>The table changed in the meantime \(time 1 s is before 2 s\)/,
    );
    expect(html({}, { notice, lang: "de" })).toContain("Der Tisch hat sich inzwischen geändert");
  });

  it("every language labels the controls", () => {
    expect(html({}, { lang: "nl" })).toContain(">Spelen<");
    expect(html({}, { lang: "de" })).toContain(">Wurfstern<");
    expect(html({}, { lang: "de" })).toContain('<option value="de" selected>Deutsch');
  });

  it("buttons and keys follow view.allowed alone, whatever the phase", () => {
    const s = html({ phase: "play", allowed: ["ready"] });
    expect(enabled(s, "btn-ready")).toBe(true);
    expect(enabled(s, "btn-play") || enabled(s, "btn-stop") || enabled(s, "lowest-card")).toBe(false);
    const none = html({ allowed: undefined });
    expect(["btn-ready", "btn-play", "btn-stop", "btn-star"].some((b) => enabled(none, b))).toBe(false);
  });

  it("the same buttons in the same places in every phase (nothing moves)", () => {
    const ids = (s) => [...s.matchAll(/<button[^>]*data-testid="(btn-[a-z-]+)"/g)].map((m) => m[1]);
    const controls = (s) => ids(s.slice(s.indexOf('class="mw-controls"')));
    const ready = controls(html({ phase: "ready", pile: [], pile_by: [], allowed: ["ready"] }));
    expect(ready).toEqual(["btn-ready", "btn-play", "btn-stop", "btn-star"]);
    expect(controls(html({}))).toEqual(ready);
    expect(controls(html({ phase: "stopped", allowed: ["ready"] }))).toEqual(ready);
  });

  it("lives keep their place: a box as wide as the most lives, a broken heart after a mistake", () => {
    const mistake = {
      type: "mistake",
      player: 0,
      card: 30,
      lives_lost: 1,
      lives: 2,
      discards: [{ player: 1, card: 20 }],
    };
    const s = html({
      lives: 2,
      max_lives: 5,
      mistake,
      pile: [30],
      pile_by: [0],
      discards: [{ player: 1, card: 20, k: "lost" }],
      mistake_discards: [0],
      early: true,
    });
    expect(s).toContain('style="--mw-slots:5" data-testid="lives" data-count="2"');
    expect((s.match(/data-testid="broken-heart"/g) || []).length).toBe(1);
    expect(s).toContain('data-testid="early-mark"');
    expect(s).toMatch(
      /data-testid="discard" data-card="20" data-player="1" data-kind="lost" data-marked="true"/,
    );
    expect(s).toContain("You played 30, but lower cards were still held.");
  });

  it("a lost game: a summary and no line that says the level goes on", () => {
    const mistake = {
      type: "mistake",
      player: 0,
      card: 50,
      lives_lost: 1,
      lives: 0,
      discards: [{ player: 1, card: 10 }],
    };
    const summary = {
      level: 3,
      lives_lost: [
        { level: 1, lives: 1 },
        { level: 3, lives: 2 },
      ],
    };
    const s = html({ phase: "lost", lives: 0, level: 3, mistake, summary, allowed: ["new_game"] });
    expect(s).toContain("Level 3 of 10 reached.");
    expect(s).toContain("Lives lost: 1 in level 1, 2 in level 3.");
    expect(s.match(/Game over/g)).toHaveLength(2); // the banner's title and its label
    expect(s).not.toContain("goes on");
    expect(s).not.toContain("left.");
    // the mistake that ended the game stays, beside the banner: it says why
    expect(s).toContain('data-testid="mistake"');
    expect(s).toContain("That was the last life.");
  });

  it("the early mark sits on the top card when the view says it was early, inside it (it flies in with it)", () => {
    const mistake = {
      type: "mistake",
      player: 2,
      card: 98,
      lives_lost: 1,
      lives: 2,
      discards: [{ player: 1, card: 73 }],
    };
    const v = { mistake, pile: [18, 98], pile_by: [0, 2], early: true };
    const top = (/** @type {string} */ s) =>
      s.match(/<span class="mw-card [^"]*mw-top[^"]*"[^>]*>.*?<\/span><\/div>/s)?.[0] ?? "";
    expect(top(html(v))).toContain('data-card="98"');
    expect(top(html(v))).toContain('data-testid="early-mark"');
    // Python decides, not a match of cards: no mark when the view says no, though the top card
    // and its player are the mistake's; a mark when it says yes, though they are not
    expect(html({ ...v, early: false })).not.toContain('data-testid="early-mark"');
    expect(top(html({ ...v, pile: [18, 99], pile_by: [0, 1] }))).toContain('data-testid="early-mark"');
  });

  it("the vote's title says 'you propose' when the person proposed, in every language", () => {
    const vote = { by: 0, votes: { 0: true }, result: "open" };
    expect(html({ phase: "vote", vote })).toContain("You propose a throwing star");
    expect(html({ phase: "vote", vote }, { lang: "nl" })).toContain("Jij stelt een werpster voor");
    expect(html({ phase: "vote", vote }, { lang: "de" })).toContain("Du schlägst einen Wurfstern vor");
    const bot = html({ phase: "vote", vote: { ...vote, by: 1, votes: { 1: true } } }, { lang: "nl" });
    expect(bot).toContain("Werpster voorgesteld door Bot 2");
  });

  it("the keys hint lists exactly the keys of the mode: W only in step mode, the vote keys always", () => {
    for (const lang of ["en", "nl", "de"]) {
      const yes = lang === "en" ? "Y" : "J";
      const real = keysHint(view(), ctx({ lang }));
      const step = keysHint(view(), ctx({ lang, mode: "step" }));
      expect(real).not.toMatch(/\bW\b/);
      expect(step).toMatch(/\bW\b/);
      for (const s of [real, step]) {
        for (const k of ["P", "S", "T", "R", yes, "N"])
          expect(s, `${lang}: ${k}`).toMatch(new RegExp(`\\b${k}\\b`));
      }
      const watch = keysHint(view({ seat: null }), ctx({ lang }));
      expect(watch).not.toMatch(/\b[WSTN]\b/);
      expect(keysHint(view({ seat: null }), ctx({ lang, mode: "step" }))).toMatch(/\bW\b/);
    }
  });

  it("a won game: one title, no 'No reward'", () => {
    const cleared = { type: "cleared", level: 10, reward: null, granted: false };
    const s = html({ phase: "won", level: 10, cleared, allowed: ["start_blind", "new_game"] });
    expect(s.match(/You won: all 10 levels cleared!/g)).toHaveLength(2); // title and label
    expect(s).not.toContain("No reward");
  });

  it("watching bots: no play buttons, no play keys", () => {
    const s = html({ seat: null, hand: [], allowed: [] });
    expect(has(s, "btn-play") || has(s, "btn-star")).toBe(false);
    expect(s).toContain("Keys: R is Ready.");
    expect(s).not.toContain("Space");
  });

  it("stopped after a mistake: says so, not who called stop", () => {
    const mistake = {
      type: "mistake",
      player: 1,
      card: 30,
      lives_lost: 1,
      lives: 2,
      discards: [{ player: 0, card: 12 }],
    };
    const s = html({ phase: "stopped", mistake, allowed: ["ready"], why: "mistake" });
    expect(s).toContain("A mistake stops the game.");
    expect(s).toContain('data-testid="mistake"');
  });

  it("an unknown or missing view renders a placeholder, not an error", () => {
    expect(renderTable({}, ctx())).toContain("The Mind");
    expect(renderTable(undefined, ctx())).toContain("The Mind");
  });

  it("escapes what it shows", () => {
    const s = renderTable(
      view({ phase: "<b>" }),
      ctx({ notice: { key: "bad_field", params: { field: "<img>" } } }),
    );
    expect(s).not.toContain("<img>");
    expect(s).toContain("&#60;img&#62;");
  });
});

describe("phase text and announcements", () => {
  it("says why the hands are on the table: a mistake or a star stops the game", () => {
    const v = { players: 3, seat: 0, counts: [1, 1, 1], phase: "stopped", why: "mistake" };
    expect(phaseText(v, { lang: "de" })).toBe(
      "Ein Fehler: Das Spiel wird unterbrochen. Hände auf den Tisch; drück auf Bereit, um weiterzuspielen.",
    );
    v.why = "star";
    expect(phaseText(v, { lang: "en" })).toBe(
      "A throwing star was used. Hands on the table; press Ready to go on.",
    );
  });

  it("says why a class table stopped: a lost connection, the teacher, a change of seat", () => {
    // issue 24: these used to read "<pupil> riep stop" (and "Jij riep stop" to the pupil who lost it)
    const v = {
      players: 3,
      seat: 0,
      counts: [1, 1, 1],
      phase: "stopped",
      names: [null, "Cas", null],
      why: "offline",
      stopped_by: 1,
    };
    const nl = { lang: "nl" };
    expect(phaseText(v, nl)).toBe(
      "Cas heeft geen verbinding meer: het spel is gepauzeerd. Handen op tafel; druk op Klaar om verder te gaan.",
    );
    expect(phaseText({ ...v, stopped_by: 0 }, nl)).toMatch(/^Je verbinding was weg: het spel is gepauzeerd/);
    // the pupil it stopped for is back (Python says so): the others read that; she reads her own line
    expect(phaseText({ ...v, back: true }, nl)).toBe(
      "Cas is terug: het spel is gepauzeerd. Handen op tafel; druk op Klaar om verder te gaan.",
    );
    expect(phaseText({ ...v, back: true, stopped_by: 0 }, nl)).toMatch(/^Je verbinding was weg/);
    expect(phaseText({ ...v, why: "teacher", stopped_by: 0 }, nl)).toMatch(
      /^De docent heeft het spel gepauzeerd\./,
    );
    expect(phaseText({ ...v, why: "seat", stopped_by: 2 }, nl)).toMatch(
      /^De plaatsen zijn gewisseld: Bot 3 speelt nu plaats 3\./,
    );
    expect(phaseText({ ...v, why: "seat", stopped_by: 2 }, { lang: "de" })).toMatch(
      /^Die Plätze haben gewechselt: Bot 3 spielt jetzt Platz 3\./,
    );
    expect(phaseText({ ...v, why: "stop" }, nl)).toMatch(/^Cas riep stop\./);
    for (const lang of ["en", "nl", "de"])
      for (const why of ["offline", "teacher", "seat"])
        expect(phaseText({ ...v, why }, { lang })).not.toMatch(/stop|Stopp/i);
  });

  it("a class page that lost its connection: the phase line says so and every button is disabled", () => {
    const v = view({ phase: "play", allowed: [], offline: true });
    expect(phaseText(v, ctx({ lang: "nl" }))).toBe(
      "Verbinding verbroken: de tafel staat voor jou stil tot je terug bent. Wat je nu indrukt, wordt niet verstuurd.",
    );
    const s = renderTable(v, ctx({ lang: "nl" }));
    for (const b of ["btn-play", "btn-stop", "btn-star", "btn-ready"]) expect(enabled(s, b)).toBe(false);
  });

  it("announces each reason of a stop in the class's language", () => {
    const v = { players: 3, seat: 0, counts: [1, 1, 1], names: [null, "Cas", null] };
    const say = (e) => announce({ ...v, news: [{ type: "stopped", player: 1, ...e }] }, "nl");
    expect(say({ why: "player" })).toBe("Cas riep stop.");
    expect(say({ why: "offline" })).toBe("Cas heeft geen verbinding meer; het spel is gepauzeerd.");
    expect(say({ why: "teacher" })).toBe("De docent heeft het spel gepauzeerd.");
    expect(say({ why: "seat", player: 0 })).toBe("Jij speelt nu plaats 1.");
  });

  it("announces that every hand goes back on the table after a mistake or a star", () => {
    const v = {
      players: 3,
      seat: 0,
      counts: [1, 1, 1],
      news: [{ type: "hands_on_table", after: "mistake", player: 1 }],
    };
    expect(announce(v, "nl")).toBe("Alle handen gaan weer op tafel.");
  });

  it("phase text follows the phase", () => {
    expect(phaseText(view({ seat: null }), ctx())).toBe("The bots are playing.");
  });

  it("a class table: after this seat's Ready the phase line and button say the table waits", () => {
    const v = view({ phase: "stopped", why: "mistake", waiting_for_team: true, allowed: [] });
    expect(phaseText(v, ctx({ lang: "nl" }))).toBe(tr("nl", "phase_joining"));
    expect(renderTable(v, ctx())).toMatch(/data-testid="btn-ready" disabled/);
    expect(phaseText({ ...v, waiting_for_team: false }, ctx())).not.toBe(tr("en", "phase_joining"));
  });

  it("the live region announces plays, mistakes, votes and results", () => {
    const news = [
      { type: "played", player: 1, card: 7 },
      { type: "mistake", player: 1, card: 7, lives_lost: 1, lives: 2, discards: [{ player: 0, card: 5 }] },
      { type: "star_proposed", player: 0 },
      { type: "star_voted", player: 1, agree: false },
      { type: "star_declined", player: 1 },
      { type: "played", player: 2, card: null },
      { type: "cleared", level: 2 },
    ];
    const text = announce(view({ news }), "en");
    expect(text).toBe(
      "Bot 2 played 7. Mistake: 7 by Bot 2 was too early. Put aside: 5 (You). One life lost; 2 lives left. " +
        "You propose a throwing star. Bot 2 declines. The throwing star is declined. " +
        "Bot 3 played a card face down. Level 2 cleared.",
    );
    expect(announce(view({ news: [{ type: "played", player: 0, card: 3 }] }), "nl")).toBe("Jij legde de 3.");
  });

  it("the person's own actions take the verb form of you in every language", () => {
    const news = [
      { type: "star_voted", player: 0, agree: true },
      { type: "star_voted", player: 1, agree: true },
      { type: "stopped", player: 0 },
    ];
    expect(announce(view({ news }), "en")).toBe("You agree. Bot 2 agrees. You called stop.");
    expect(announce(view({ news }), "nl")).toBe("Jij bent akkoord. Bot 2 is akkoord. Jij riep stop.");
    expect(announce(view({ news }), "de")).toBe("Du stimmst zu. Bot 2 stimmt zu. Du hast Stopp gerufen.");
  });
});

describe("the table's menus: the bots' tempo and the watch speed", () => {
  // what Python sends with a menu (mindwidget/session.py): the entries and their labels
  const menus = (lang = "en") => ({
    tempos: ["slow", "people", "quick"],
    tempo_labels: ["slow", "people", "quick"].map((n) => tr(lang, `tempo_${n}`)),
    speed_labels: ["1×", "2×", "4×"],
  });
  const menu = (s, role) => s.match(new RegExp(`<select[^>]*data-testid="${role}"[^>]*>(.*?)</select>`))?.[1];
  const selected = (s, role) => menu(s, role)?.match(/<option value="([^"]*)" selected>/)?.[1];

  it("shows the tempo when the bots have one, with the current one chosen", () => {
    const s = html({ tempo: "quick", speeds: [], ...menus() });
    expect(menu(s, "tempo")).toContain("like people");
    expect(selected(s, "tempo")).toBe("quick");
    expect(s).toContain("Bots&#39; tempo");
    expect(has(s, "speed")).toBe(false); // a person is seated: no watch speed
  });

  it("hides the tempo when the bots have none (null) or the view does not say", () => {
    expect(has(html({ tempo: null, speeds: [] }), "tempo")).toBe(false);
    expect(has(html({}), "tempo")).toBe(false);
    expect(has(html({}), "speed")).toBe(false);
  });

  it("a table of bots only: the watch speeds Python offers, the clock's chosen", () => {
    const v = { seat: null, hand: [], allowed: ["ready"], tempo: "people", speeds: [1, 2, 4], ...menus() };
    const s = html(v, { speed: 2 });
    expect(menu(s, "speed")).toContain("4×");
    expect(selected(s, "speed")).toBe("2");
    expect(selected(s, "tempo")).toBe("people");
    expect(selected(html(v), "speed")).toBe("1"); // no speed in the clock yet: 1
  });

  it("a tempo set as a number from a cell is shown as it is, no name chosen", () => {
    const s = html({ tempo: 0.8, speeds: [], ...menus() });
    expect(selected(s, "tempo")).toBeUndefined();
    expect(menu(s, "tempo")).toContain("<option selected disabled>0.8</option>");
  });

  it("labels the menus in the table's language", () => {
    const s = html(
      { seat: null, hand: [], tempo: "slow", speeds: [1, 2, 4], ...menus("nl") },
      { lang: "nl" },
    );
    expect(s).toContain("Tempo van de bots");
    expect(s).toContain("langzaam");
    expect(s).toContain("Kijksnelheid");
  });
});

describe("seats a pupil reads count from 1 (issue 19)", () => {
  it("names seat index 0 'Bot 1' at a bots-only table and 'You (player 1)' in the trace legend", () => {
    expect(seatNames(view({ seat: null }), "nl")).toEqual(["Bot 1", "Bot 2", "Bot 3"]);
    expect(seatNames(view({ seat: 0 }), "nl", true)).toEqual(["Jij (speler 1)", "Bot 2", "Bot 3"]);
    const s = html({});
    expect(s).not.toMatch(/\b(Bot|Player|Speler|Spieler) 0\b/);
  });

  it("says the person's own card and mistake in the you form: 'von dir', not 'von Du'", () => {
    const s = html({ pile: [7], pile_by: [0] }, { lang: "de" });
    expect(s).toContain("7, von dir gespielt");
    expect(s).not.toContain("von Du");
    const news = [{ type: "mistake", player: 0, card: 9, discards: [], lives_lost: 1, lives: 2 }];
    expect(announce(view({ news }), "nl")).toContain("Fout: jouw 9 was te vroeg.");
  });
});

describe("the table shows what the view says, and works out no rule (issue 26)", () => {
  const { stoppedByMistake, won } = views;
  const costly = {
    ...stoppedByMistake,
    lives: 1,
    mistake: { ...stoppedByMistake.mistake, lives_lost: 2, lives: 1 },
  };

  it("a mistake that cost 2 lives: 2 broken hearts, and the panel and the live region say 2", () => {
    const s = renderTable(costly, ctx());
    expect((s.match(/data-testid="broken-heart"/g) || []).length).toBe(2);
    expect(s).toContain("2 lives lost. 1 life left.");
    expect(s).not.toContain("One life lost");
    expect(renderTable(costly, ctx({ lang: "nl" }))).toContain("2 levens kwijt. Nog 1 leven over.");
    const said = announce({ ...costly, news: [costly.mistake] }, "en");
    expect(said).toContain("2 lives lost. 1 life left.");
    // the usual mistake: one heart, in the usual words
    const one = renderTable(stoppedByMistake, ctx());
    expect((one.match(/data-testid="broken-heart"/g) || []).length).toBe(1);
    expect(one).toContain("One life lost; 2 lives left.");
  });

  it("marks the put-aside cards the view names, not the last ones a count would pick", () => {
    const discards = [
      { player: 0, card: 12, k: "lost" },
      { player: 2, card: 14, k: "star" },
      { player: 1, card: 20, k: "lost" },
    ];
    // the mistake put aside one card; counting would mark the last mistake card (20)
    const s = renderTable({ ...stoppedByMistake, discards, mistake_discards: [0] }, ctx());
    const marked = [...s.matchAll(/data-testid="discard" data-card="(\d+)"[^>]*data-marked="true"/g)];
    expect(marked.map((m) => Number(m[1]))).toEqual([12]);
    const { mistake_discards: _, ...unnamed } = stoppedByMistake;
    expect(renderTable({ ...unnamed, discards }, ctx())).not.toContain('data-marked="true"');
  });

  it("the early mark follows view.early, not a match of the top card with the mistake", () => {
    expect(renderTable(stoppedByMistake, ctx())).toContain('data-testid="early-mark"');
    const { early, ...notEarly } = stoppedByMistake;
    expect(early).toBe(true);
    const s = renderTable(notEarly, ctx());
    expect(s).not.toContain('data-testid="early-mark"'); // though the top card is the mistake's 30
  });

  it("the blind-mode hint shows when the view says so", () => {
    const hint = "Try it blind";
    expect(renderTable(won, ctx())).toContain(hint);
    // not blind, but Python says no blind mode follows: no hint
    const { blind_hint: hinted, ...noHint } = won;
    expect(hinted).toBe(true);
    expect(renderTable(noHint, ctx())).not.toContain(hint);
  });

  it("the trace's card axis runs to the view's deck: a deck of 50 draws a 50-high axis", () => {
    const points = [{ k: "play", t: 1, card: 50, player: 1 }];
    const labels = (/** @type {string} */ s) =>
      [...s.matchAll(/text-anchor="end">(\d+)<\/text>/g)].map((m) => Number(m[1]));
    expect(labels(renderTable({ ...baseView, deck: 50 }, ctx({ points })))).toEqual([0, 25, 50]);
    expect(labels(renderTable(baseView, ctx({ points })))).toEqual([0, 25, 50, 75, 100]);
  });
});
