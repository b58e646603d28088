// The lesson's question on a pupil's page (the class server): the question and
// one button per choice; after the reveal this pupil's own choice beside the right answer
// and the class's counts; after the lesson, "Your answers". Python decides everything
// (`classroom/questions.py`, the `question` of the class part, `wire.PupilQuestion`):
// this page shows what it is sent and sends {type: "answer", question, choice}.
import "./question.css";
import { say } from "./classmodel.js";

/**
 * The lines a question shows, in `lang` (no DOM, for vitest).
 * @param {any} q the `question` of the class part
 * @param {string} lang
 */
export function questionLines(q, lang) {
  const chose = q.mine === null || q.mine === undefined ? null : q.choices[q.mine];
  const out = { waits: "", hint: "", result: "", answer: "", counts: "" };
  if (q.held) {
    out.waits = say(lang, "q_waits");
    return out;
  }
  if (q.state === "open") out.hint = say(lang, "q_change");
  else if (q.state === "closed") out.hint = say(lang, "q_closed");
  else {
    out.result = chose === null ? say(lang, "q_no_choice") : say(lang, "q_you_chose", { choice: chose });
    out.answer =
      q.answer === null || q.answer === undefined
        ? say(lang, "q_opinion")
        : say(lang, "q_answer", { answer: q.choices[q.answer] });
    if (Array.isArray(q.counts)) {
      const parts = q.choices.map((c, i) => `${c}: ${q.counts[i] ?? 0}`);
      out.counts = say(lang, "q_class", { counts: parts.join(" · ") });
    }
  }
  return out;
}

/**
 * The question's part of the page, in `el`. `send(msg)` sends a message to the server.
 * `keep()` names where this tab keeps the questions it was shown (sessionStorage: a
 * reload keeps "Your answers"), or null.
 * @param {HTMLElement} el
 * @param {(msg: any) => void} send
 * @param {() => string | null} [keep]
 */
export function questionPart(el, send, keep = () => null) {
  /** every question this page was shown, by id: the pupil's own answers after the lesson */
  const seen = new Map();
  let kept = null;
  const remember = () => {
    try {
      const key = keep();
      if (!key) return;
      if (key !== kept) {
        // this pupil's earlier questions in this tab (a reload): only this pupil's own
        const old = JSON.parse(sessionStorage.getItem(key) || "[]");
        for (const q of Array.isArray(old) ? old : []) if (!seen.has(q?.id)) seen.set(q.id, q);
        kept = key;
      }
      sessionStorage.setItem(key, JSON.stringify([...seen.values()].slice(-200)));
    } catch {
      // no storage (a private window may refuse it): the answers of this page's life only
    }
  };
  let current = null;
  let lang = "en";
  el.className = "mwc-question";
  el.dataset.testid = "class-question";
  el.hidden = true;

  const draw = () => {
    const q = current;
    el.replaceChildren();
    if (!q) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    el.dataset.state = q.held ? "held" : q.state;
    el.dataset.id = String(q.id);
    const lines = questionLines(q, lang);
    if (q.held) {
      const p = document.createElement("p");
      p.className = "mwc-q-waits";
      p.dataset.testid = "class-question-waits";
      p.textContent = lines.waits;
      el.append(p);
      return;
    }
    const title = document.createElement("h2");
    title.className = "mwc-q-title";
    title.textContent = say(lang, "q_title");
    const text = document.createElement("p");
    text.className = "mwc-q-text";
    text.dataset.testid = "class-question-text";
    text.textContent = q.text;
    const group = document.createElement("div");
    group.className = "mwc-q-choices";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", q.text);
    q.choices.forEach((choice, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mwc-q-choice";
      b.dataset.testid = "class-question-choice";
      b.dataset.choice = String(i);
      b.textContent = choice;
      b.setAttribute("aria-pressed", String(q.mine === i));
      if (q.state === "revealed" && q.answer === i) b.dataset.right = "true";
      b.disabled = q.state !== "open";
      b.addEventListener("click", () => send({ type: "answer", question: q.id, choice: i }));
      group.append(b);
    });
    el.append(title, text, group);
    for (const [key, cls] of [
      ["hint", "mwc-q-hint"],
      ["result", "mwc-q-result"],
      ["answer", "mwc-q-answer"],
      ["counts", "mwc-q-counts"],
    ]) {
      if (!lines[key]) continue;
      const p = document.createElement("p");
      p.className = cls;
      p.dataset.testid = `class-question-${key}`;
      p.textContent = lines[key];
      el.append(p);
    }
  };

  return {
    /** The class part's `question` (or none), in the pupil's language. */
    show(q, pupilLang) {
      lang = pupilLang || lang;
      current = q && typeof q === "object" ? q : null;
      if (current) seen.set(current.id, current);
      if (current) remember();
      draw();
    },
    /** After the lesson: the pupil's own answers, kept in `container` ("Your answers"). */
    ended(container) {
      el.hidden = true;
      const part = document.createElement("section");
      part.className = "mwc-q-mine";
      part.dataset.testid = "class-answers";
      const h = document.createElement("h2");
      h.textContent = say(lang, "q_your_answers");
      part.append(h);
      const answered = [...seen.values()]
        .filter((q) => q.mine !== null && q.mine !== undefined)
        .sort((a, b) => a.id - b.id);
      if (!answered.length) {
        const p = document.createElement("p");
        p.textContent = say(lang, "q_none");
        part.append(p);
      } else {
        const list = document.createElement("ol");
        for (const q of answered) {
          const item = document.createElement("li");
          const lines = questionLines({ ...q, held: false, state: "revealed" }, lang);
          const right = q.state === "revealed" ? ` · ${lines.answer}` : "";
          const asked = document.createElement("b");
          asked.textContent = q.text;
          const mine = document.createElement("div");
          mine.textContent = `${lines.result}${right}`;
          item.append(asked, mine);
          list.append(item);
        }
        part.append(list);
      }
      container.append(part);
    },
  };
}
